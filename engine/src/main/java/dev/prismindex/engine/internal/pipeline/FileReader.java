package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.internal.chunk.SourceLines;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Content helpers shared by indexing and search: binary sniffing and lenient UTF-8 decoding. */
public final class FileReader {

  /** Bytes sniffed for a NUL, as the literal scanner does. */
  public static final int BINARY_SNIFF_BYTES = 8192;

  private FileReader() {}

  /** Whether a NUL byte occurs in the first {@value #BINARY_SNIFF_BYTES} bytes. */
  public static boolean isBinary(byte[] bytes, int length) {
    int n = Math.min(length, BINARY_SNIFF_BYTES);
    int i = 0;
    // 32 bytes a step, one test: a word holds a zero byte iff (w - 0x01..01) & ~w & 0x80..80 != 0.
    for (; i + 4 * Long.BYTES <= n; i += 4 * Long.BYTES) {
      if ((zeros((long) LONGS.get(bytes, i)) | zeros((long) LONGS.get(bytes, i + Long.BYTES))
          | zeros((long) LONGS.get(bytes, i + 2 * Long.BYTES))
          | zeros((long) LONGS.get(bytes, i + 3 * Long.BYTES))) != 0) {
        return true;
      }
    }
    for (; i + Long.BYTES <= n; i += Long.BYTES) {
      if (zeros((long) LONGS.get(bytes, i)) != 0) {
        return true;
      }
    }
    for (; i < n; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** Non-zero iff {@code w} has a zero byte. */
  private static long zeros(long w) {
    return (w - 0x0101010101010101L) & ~w & 0x8080808080808080L;
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * Decodes UTF-8, replacing malformed input with U+FFFD as a replacing {@code CharsetDecoder}
   * does (the JDK's string decoding: no buffer in between, ASCII copied as it is).
   */
  public static String decode(byte[] bytes, int length) {
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }

  /**
   * Whether text looks minified or generated: more than 64 Ki characters with an average line longer
   * than 1 000 characters (small files with a few long lines are kept; lines as {@link
   * SourceLines} splits them).
   */
  public static boolean looksMinified(String text) {
    return text.length() > 64 * 1024
        && text.length() / Math.max(1, SourceLines.split(text).size()) > 1000;
  }
}
