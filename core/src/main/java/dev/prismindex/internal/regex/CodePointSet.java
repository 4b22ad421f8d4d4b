package dev.prismindex.internal.regex;

import java.util.Arrays;

/**
 * An immutable set of Unicode scalar values (code points 0..0x10FFFF without the surrogates
 * U+D800..U+DFFF), as sorted, disjoint, non-adjacent closed ranges, with an ASCII bitmap for the
 * common case of {@link #contains}. Every set a pattern builds is one of these, so no class can
 * ever hold a surrogate: a lone surrogate in a line (how {@code RegexPattern} marks bytes that are
 * not UTF-8) matches nothing.
 */
public final class CodePointSet {

  /** The largest code point. */
  public static final int MAX = 0x10FFFF;

  /** No code point. */
  public static final CodePointSet EMPTY = new CodePointSet(new int[0]);
  /** Every scalar value. */
  public static final CodePointSet ANY = of(0, 0xD7FF, 0xE000, MAX);

  /** Pairs {@code lo, hi}, ascending, disjoint and never adjacent. */
  private final int[] ranges;
  private final long asciiLow;
  private final long asciiHigh;

  private CodePointSet(int[] ranges) {
    this.ranges = ranges;
    long lo = 0;
    long hi = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      for (int c = ranges[i]; c <= Math.min(ranges[i + 1], 127); c++) {
        if (c < 64) {
          lo |= 1L << c;
        } else {
          hi |= 1L << (c - 64);
        }
      }
    }
    this.asciiLow = lo;
    this.asciiHigh = hi;
  }

  /** The set of the closed ranges {@code lo0, hi0, lo1, hi1, ...} (any order, overlaps allowed). */
  public static CodePointSet of(int... pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException("ranges come in pairs");
    }
    return normalise(pairs.clone(), pairs.length);
  }

  /** The set of one code point. */
  public static CodePointSet single(int cp) {
    return of(cp, cp);
  }

  /** Sorts, merges and clips the surrogates out of {@code pairs[0..n)} (which it may change). */
  static CodePointSet normalise(int[] pairs, int n) {
    int count = n / 2;
    long[] packed = new long[count];
    for (int i = 0; i < count; i++) {
      int lo = pairs[2 * i];
      int hi = pairs[2 * i + 1];
      if (lo < 0 || hi > MAX || lo > hi) {
        throw new IllegalArgumentException("bad range " + lo + ".." + hi);
      }
      packed[i] = (long) lo << 32 | hi;
    }
    Arrays.sort(packed);
    int[] out = new int[count * 2 + 2];
    int m = 0;
    for (long p : packed) {
      int lo = (int) (p >>> 32);
      int hi = (int) p;
      if (m > 0 && lo <= out[m - 1] + 1) {
        out[m - 1] = Math.max(out[m - 1], hi);
      } else {
        out[m++] = lo;
        out[m++] = hi;
      }
    }
    // Clip the surrogates: a range over them splits in two.
    int[] clipped = new int[m + 2];
    int k = 0;
    for (int i = 0; i < m; i += 2) {
      int lo = out[i];
      int hi = out[i + 1];
      if (hi < 0xD800 || lo > 0xDFFF) {
        clipped[k++] = lo;
        clipped[k++] = hi;
        continue;
      }
      if (lo < 0xD800) {
        clipped[k++] = lo;
        clipped[k++] = 0xD7FF;
      }
      if (hi > 0xDFFF) {
        clipped[k++] = 0xE000;
        clipped[k++] = hi;
      }
    }
    return new CodePointSet(Arrays.copyOf(clipped, k));
  }

  /** Whether {@code cp} is in the set. */
  public boolean contains(int cp) {
    if (cp < 64) {
      return cp >= 0 && (asciiLow & (1L << cp)) != 0;
    }
    if (cp < 128) {
      return (asciiHigh & (1L << (cp - 64))) != 0;
    }
    int lo = 0;
    int hi = ranges.length / 2 - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (cp < ranges[2 * mid]) {
        hi = mid - 1;
      } else if (cp > ranges[2 * mid + 1]) {
        lo = mid + 1;
      } else {
        return true;
      }
    }
    return false;
  }

  /** Whether the set is empty. */
  public boolean isEmpty() {
    return ranges.length == 0;
  }

  /** The number of ranges. */
  public int rangeCount() {
    return ranges.length / 2;
  }

  /** The first code point of range {@code i}. */
  public int lo(int i) {
    return ranges[2 * i];
  }

  /** The last code point of range {@code i}. */
  public int hi(int i) {
    return ranges[2 * i + 1];
  }

  /** The number of code points in the set. */
  public long size() {
    long n = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      n += ranges[i + 1] - ranges[i] + 1L;
    }
    return n;
  }

  /** The only code point of a set of one, else -1. */
  public int single() {
    return ranges.length == 2 && ranges[0] == ranges[1] ? ranges[0] : -1;
  }

  /** This set and {@code other}. */
  public CodePointSet union(CodePointSet other) {
    int[] all = Arrays.copyOf(ranges, ranges.length + other.ranges.length);
    System.arraycopy(other.ranges, 0, all, ranges.length, other.ranges.length);
    return normalise(all, all.length);
  }

  /** Every scalar value not in this set. */
  public CodePointSet negate() {
    int[] out = new int[ranges.length + 4];
    int m = 0;
    int next = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      if (ranges[i] > next) {
        out[m++] = next;
        out[m++] = ranges[i] - 1;
      }
      next = ranges[i + 1] + 1;
    }
    if (next <= MAX) {
      out[m++] = next;
      out[m++] = MAX;
    }
    return normalise(out, m);
  }

  /** The code points in both sets. */
  public CodePointSet intersect(CodePointSet other) {
    return negate().union(other.negate()).negate();
  }

  /** The code points of this set that are not in {@code other}. */
  public CodePointSet minus(CodePointSet other) {
    return intersect(other.negate());
  }

  /** The code points in exactly one of the sets. */
  public CodePointSet symmetricDifference(CodePointSet other) {
    return minus(other).union(other.minus(this));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CodePointSet s && Arrays.equals(ranges, s.ranges);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(ranges);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < ranges.length; i += 2) {
      b.append(String.format("%X", ranges[i]));
      if (ranges[i + 1] != ranges[i]) {
        b.append('-').append(String.format("%X", ranges[i + 1]));
      }
      if (i + 2 < ranges.length) {
        b.append(' ');
      }
    }
    return b.append(']').toString();
  }
}
