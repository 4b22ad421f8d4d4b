package dev.prismindex.engine.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FileReaderBinaryTest {

  /** The plain rule: a NUL among the first {@code BINARY_SNIFF_BYTES} of {@code length}. */
  private static boolean naive(byte[] bytes, int length) {
    for (int i = 0; i < Math.min(length, FileReader.BINARY_SNIFF_BYTES); i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  @Test
  void aNulAnywhereInTheSniffedBytesAndNowhereElseMakesAFileBinary() {
    int size = FileReader.BINARY_SNIFF_BYTES + 20;
    byte[] text = new byte[size];
    Arrays.fill(text, (byte) 'a');
    assertThat(FileReader.isBinary(text, size)).isFalse();
    for (int at = 0; at < size; at++) {
      for (int length : new int[] {at, at + 1, at + 7, at + 8, size}) {
        if (length > size) {
          continue;
        }
        byte[] b = text.clone();
        b[at] = 0;
        assertThat(FileReader.isBinary(b, length)).as("NUL at %d of %d", at, length)
            .isEqualTo(at < length && at < FileReader.BINARY_SNIFF_BYTES);
      }
    }
  }

  @Test
  void bytesThatLookLikeAZeroToAWordTrickAreNotOne() {
    // 0x80, 0x01 and 0xFF neighbours borrow and carry in w - 0x0101...: none of them is a NUL.
    byte[] values = {1, (byte) 0x80, (byte) 0xFF, (byte) 0x81, 0x7F, 2, (byte) 0xFE, 0};
    Random random = new Random(77);
    for (int round = 0; round < 20_000; round++) {
      byte[] b = new byte[random.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        b[i] = values[random.nextInt(random.nextInt(8) == 0 ? values.length : values.length - 1)];
      }
      int length = b.length == 0 ? 0 : random.nextInt(b.length + 1);
      assertThat(FileReader.isBinary(b, length)).as("%s, %d", Arrays.toString(b), length)
          .isEqualTo(naive(b, length));
    }
  }
}
