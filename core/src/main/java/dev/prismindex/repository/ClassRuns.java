package dev.prismindex.repository;

import dev.prismindex.internal.regex.CodePointSet;

/**
 * Where a regex match may start in UTF-8 bytes, for a pattern without a required literal whose
 * matches start with a run of code points in known classes ({@link
 * dev.prismindex.internal.regex.Prefilter#startSequence}): a skip search over the classes, so that
 * only the lines where such a run may start are decoded and matched.
 */
final class ClassRuns {

  /**
   * Per byte value, bit {@code k} set when that ASCII character is in the run's class {@code k},
   * and every bit for a byte of a non-ASCII character (which this byte-level test leaves to the
   * matcher).
   */
  private final int[] byteClasses = new int[256];
  /** Per byte value, 1 when {@link #byteClasses} has a bit for it (a byte in any class). */
  private final byte[] inRun = new byte[256];
  private final int runLength;

  /** The runs of a code point of {@code first} followed by one of each of {@code then}. */
  ClassRuns(CodePointSet first, CodePointSet[] then) {
    this.runLength = then.length + 1;
    for (int c = 0; c < 256; c++) {
      int bits = 0;
      for (int k = 0; k < runLength; k++) {
        if (c >= 128 || (k == 0 ? first : then[k - 1]).contains(c)) {
          bits |= 1 << k;
        }
      }
      byteClasses[c] = bits;
      inRun[c] = (byte) (bits != 0 ? 1 : 0);
    }
  }

  /**
   * The first byte in [{@code i}, {@code n}) where a run may start, -1 when none. A byte {@code m
   * - 1} ahead of a possible start that is ASCII and in none of the run's classes rules out the
   * {@code m} starts up to it (the run's {@code m} code points take at least {@code m} bytes, every
   * one of them ASCII in its class or part of a non-ASCII character), so where the text holds no
   * run one byte in {@code m} is looked at (Horspool's skip, for classes).
   */
  int next(byte[] b, int n, int i) {
    int[] table = byteClasses;
    byte[] any = inRun;
    int m = runLength;
    while (i + m <= n) {
      // The common case first, in a loop of its own: the window's last byte rules it out.
      if (any[b[i + m - 1] & 0xFF] == 0) {
        i += m;
        continue;
      }
      int j = i + m - 2;
      while (j >= i && any[b[j] & 0xFF] != 0) {
        j--;
      }
      if (j >= i) {
        i = j + 1;
        continue;
      }
      if (runAt(b, i, m, table)) {
        return i;
      }
      i++;
    }
    return -1; // fewer than m bytes left: no run fits
  }

  /**
   * Whether a run may start at byte {@code i}: each of the {@code m} bytes from it in its class,
   * up to the first byte of a non-ASCII character (from there on the matcher decides).
   */
  private static boolean runAt(byte[] b, int i, int m, int[] table) {
    for (int k = 0; k < m; k++) {
      int c = b[i + k] & 0xFF;
      if (c >= 128) {
        return true;
      }
      if ((table[c] & (1 << k)) == 0) {
        return false;
      }
    }
    return true;
  }
}
