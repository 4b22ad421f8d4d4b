package dev.prismindex.internal;

/**
 * UTF-8 byte accounting with the reference's rules: a lone surrogate counts as 3 bytes (as JavaScript's
 * encoder emits U+FFFD for it), and truncation never splits a code point.
 */
public final class Utf8 {

  private Utf8() {}

  /** The UTF-8 length of {@code s}, counting each lone surrogate as 3 bytes. */
  public static long byteLength(CharSequence s) {
    long bytes = 0;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /**
   * The longest prefix of {@code s} whose UTF-8 length is at most {@code maxBytes}, cut on a code-point
   * boundary (so the result may be shorter than the cap). Returns {@code s} itself when it fits.
   */
  public static String truncateToBytes(String s, long maxBytes) {
    long bytes = 0;
    int n = s.length();
    for (int i = 0; i < n; ) {
      char c = s.charAt(i);
      int width;
      int units;
      if (c < 0x80) {
        width = 1;
        units = 1;
      } else if (c < 0x800) {
        width = 2;
        units = 1;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
        width = 4;
        units = 2;
      } else {
        width = 3;
        units = 1;
      }
      if (bytes + width > maxBytes) {
        return s.substring(0, i);
      }
      bytes += width;
      i += units;
    }
    return s;
  }
}
