package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.internal.chunk.SourceLines;
import java.nio.charset.StandardCharsets;

/** Content helpers shared by indexing and search: binary sniffing and lenient UTF-8 decoding. */
public final class FileReader {

  /** Bytes sniffed for a NUL, as the literal scanner does. */
  public static final int BINARY_SNIFF_BYTES = 8192;

  private FileReader() {}

  /** Whether a NUL byte occurs in the first {@value #BINARY_SNIFF_BYTES} bytes. */
  public static boolean isBinary(byte[] bytes, int length) {
    int n = Math.min(length, BINARY_SNIFF_BYTES);
    for (int i = 0; i < n; i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }

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
