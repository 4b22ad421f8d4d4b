package dev.prismindex.engine.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link FileReader#decode} gives what a replacing UTF-8 {@code CharsetDecoder} gives (what it
 * used before), malformed input included: truncated and overlong sequences, surrogates encoded in
 * UTF-8, bytes beyond U+10FFFF, stray continuation bytes.
 */
class FileReaderDecodeTest {

  @Test
  void decodesAsAReplacingDecoderOnSeededRandomBytes() throws CharacterCodingException {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    byte[] edges = {(byte) 0xC0, (byte) 0xC1, (byte) 0xC2, (byte) 0xDF, (byte) 0xE0, (byte) 0xED,
        (byte) 0xEF, (byte) 0xF0, (byte) 0xF4, (byte) 0xF5, (byte) 0xFF, (byte) 0x80, (byte) 0xBF,
        (byte) 0xA0, (byte) 0x9F, (byte) 0x90, (byte) 0x8F, 'a', '\n', 0};
    for (int i = 0; i < 200_000; i++) {
      byte[] bytes = new byte[r.nextInt(16) + 2];
      for (int j = 0; j < bytes.length; j++) {
        bytes[j] = r.nextBoolean() ? edges[r.nextInt(edges.length)] : (byte) r.nextInt(256);
      }
      int length = bytes.length - r.nextInt(2);
      assertThat(FileReader.decode(bytes, length))
          .as("seed %d, bytes %s, length %d", seed, HexFormat.of().formatHex(bytes), length)
          .isEqualTo(replacing(bytes, length));
    }
  }

  private static String replacing(byte[] bytes, int length) throws CharacterCodingException {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
    return decoder.decode(ByteBuffer.wrap(bytes, 0, length)).toString();
  }
}
