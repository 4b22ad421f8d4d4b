package dev.prismindex.memory;

import dev.prismindex.internal.Utf8;

/**
 * Stores repository-relative paths compactly as bytes and compares them in {@link String} order.
 *
 * <p>The encoding is UTF-8 generalised to unpaired surrogates (each is written as its own three-byte
 * sequence, as WTF-8 does), so every Java string, even one with a lone surrogate, round-trips
 * exactly; {@code String.getBytes(UTF_8)} would replace it with {@code ?}. Only bytes written by
 * {@link #encode} are ever decoded, so no validation is needed on the way back.
 */
final class PathCodec {

  private PathCodec() {}

  /** The encoded length of {@code s}: UTF-8, a lone surrogate 3 bytes (as {@link #encode} writes). */
  static int encodedLength(String s) {
    return (int) Utf8.byteLength(s);
  }

  /** Writes {@code s} at {@code out[offset]} and returns the offset after it. */
  static int encode(String s, byte[] out, int offset) {
    int at = offset;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out[at++] = (byte) c;
      } else if (c < 0x800) {
        out[at++] = (byte) (0xC0 | (c >> 6));
        out[at++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        out[at++] = (byte) (0xF0 | (cp >> 18));
        out[at++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        out[at++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        out[at++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        out[at++] = (byte) (0xE0 | (c >> 12));
        out[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[at++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return at;
  }

  /** Decodes the bytes {@code [start, end)} written by {@link #encode}. */
  static String decode(byte[] data, int start, int end) {
    boolean ascii = true;
    for (int i = start; i < end; i++) {
      if (data[i] < 0) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      return new String(data, start, end - start, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
    char[] out = new char[end - start];
    int n = 0;
    int i = start;
    while (i < end) {
      int b0 = data[i] & 0xFF;
      if (b0 < 0x80) {
        out[n++] = (char) b0;
        i += 1;
      } else if (b0 < 0xE0) {
        out[n++] = (char) (((b0 & 0x1F) << 6) | (data[i + 1] & 0x3F));
        i += 2;
      } else if (b0 < 0xF0) {
        out[n++] = (char) (((b0 & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6)
            | (data[i + 2] & 0x3F));
        i += 3;
      } else {
        int cp = ((b0 & 0x07) << 18) | ((data[i + 1] & 0x3F) << 12) | ((data[i + 2] & 0x3F) << 6)
            | (data[i + 3] & 0x3F);
        out[n++] = Character.highSurrogate(cp);
        out[n++] = Character.lowSurrogate(cp);
        i += 4;
      }
    }
    return new String(out, 0, n);
  }

  /**
   * Compares the decoded bytes {@code [start, end)} with {@code s} in UTF-16 unit order (the order of
   * {@link String#compareTo}), without allocating.
   */
  static int compare(byte[] data, int start, int end, String s) {
    int i = start;
    int j = 0;
    int n = s.length();
    char pendingLow = 0;
    while (true) {
      char unit;
      if (pendingLow != 0) {
        unit = pendingLow;
        pendingLow = 0;
      } else if (i < end) {
        int b0 = data[i] & 0xFF;
        if (b0 < 0x80) {
          unit = (char) b0;
          i += 1;
        } else if (b0 < 0xE0) {
          unit = (char) (((b0 & 0x1F) << 6) | (data[i + 1] & 0x3F));
          i += 2;
        } else if (b0 < 0xF0) {
          unit = (char) (((b0 & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6)
              | (data[i + 2] & 0x3F));
          i += 3;
        } else {
          int cp = ((b0 & 0x07) << 18) | ((data[i + 1] & 0x3F) << 12)
              | ((data[i + 2] & 0x3F) << 6) | (data[i + 3] & 0x3F);
          unit = Character.highSurrogate(cp);
          pendingLow = Character.lowSurrogate(cp);
          i += 4;
        }
      } else {
        return j < n ? -1 : 0;
      }
      if (j >= n) {
        return 1;
      }
      char other = s.charAt(j++);
      if (unit != other) {
        return unit - other;
      }
    }
  }
}
