package dev.prismindex.repository;

/**
 * Decodes UTF-8 the way the WHATWG Encoding Standard (and so JavaScript's {@code TextDecoder} and
 * Node's {@code Buffer#toString}) does: every maximal ill-formed subsequence becomes one U+FFFD.
 *
 * <p>Java's own decoder differs on encoded surrogates ({@code ED A0 80} is one replacement there,
 * three here), so the scanner uses this one to report exactly the reference's line text.
 */
final class Utf8Decoder {

  private static final char REPLACEMENT = '\uFFFD';

  private Utf8Decoder() {}

  /** Decodes {@code len} bytes of {@code bytes} starting at {@code off}. */
  static String decode(byte[] bytes, int off, int len) {
    return decode(bytes, off, len, REPLACEMENT);
  }

  /**
   * Decodes {@code len} bytes of {@code bytes} starting at {@code off}, each maximal ill-formed
   * subsequence becoming {@code replacement} (U+FFFD, or the regex matcher's mark of a byte that is
   * not UTF-8).
   */
  static String decode(byte[] bytes, int off, int len, char replacement) {
    // The JDK's decoder (its ASCII check and copy are intrinsics) agrees with this one on
    // well-formed UTF-8; a U+FFFD in its answer (an ill-formed byte, or one the text holds) sends
    // the text through the loop below, which replaces each maximal ill-formed subsequence.
    String fast = new String(bytes, off, len, java.nio.charset.StandardCharsets.UTF_8);
    if (fast.indexOf('\uFFFD') < 0) {
      return fast;
    }
    int end = off + len;
    int i = off;
    while (i < end && bytes[i] >= 0) {
      i++;
    }
    char[] out = new char[len];
    int n = 0;
    for (int j = off; j < i; j++) {
      out[n++] = (char) bytes[j];
    }
    int needed = 0;
    int seen = 0;
    int codePoint = 0;
    int lower = 0x80;
    int upper = 0xBF;
    while (i < end) {
      int b = bytes[i] & 0xFF;
      if (needed == 0) {
        i++;
        if (b < 0x80) {
          out[n++] = (char) b;
        } else if (b >= 0xC2 && b <= 0xDF) {
          needed = 1;
          codePoint = b & 0x1F;
        } else if (b >= 0xE0 && b <= 0xEF) {
          if (b == 0xE0) {
            lower = 0xA0;
          } else if (b == 0xED) {
            upper = 0x9F;
          }
          needed = 2;
          codePoint = b & 0x0F;
        } else if (b >= 0xF0 && b <= 0xF4) {
          if (b == 0xF0) {
            lower = 0x90;
          } else if (b == 0xF4) {
            upper = 0x8F;
          }
          needed = 3;
          codePoint = b & 0x07;
        } else {
          out[n++] = replacement;
        }
        continue;
      }
      if (b < lower || b > upper) {
        // The sequence so far is one maximal ill-formed subpart; b is decoded afresh.
        needed = 0;
        seen = 0;
        codePoint = 0;
        lower = 0x80;
        upper = 0xBF;
        out[n++] = replacement;
        continue;
      }
      i++;
      lower = 0x80;
      upper = 0xBF;
      codePoint = (codePoint << 6) | (b & 0x3F);
      seen++;
      if (seen == needed) {
        n += Character.toChars(codePoint, out, n);
        needed = 0;
        seen = 0;
        codePoint = 0;
      }
    }
    if (needed != 0) {
      out[n++] = replacement;
    }
    return new String(out, 0, n);
  }
}
