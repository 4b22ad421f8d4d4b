package dev.prismindex.repository;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The literals one of which every matching line of a regex holds ({@link
 * dev.prismindex.internal.regex.Prefilter}), and their search in a text: as they are with the JVM's
 * string search, or up to ASCII case from each literal's rarest character ({@link #rarest}); or,
 * when every literal is ASCII, in UTF-8 bytes ({@link #in(byte[], int)}: no copy of the text).
 */
final class RequiredLiterals {

  private final List<String> literals;
  /** Whether the literals (lower case) are looked for up to ASCII case. */
  private final boolean asciiCases;
  /** Per literal, the index of its character looked for first (the rarest in code). */
  private final int[] pivots;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /** Per literal, its bytes (ASCII literals only, else null). */
  private final byte @Nullable [][] bytes;
  /** Per literal, the indices of its two bytes tested first in a word ({@link #pair}). */
  private final int[] first;
  private final int[] second;

  RequiredLiterals(List<String> literals, boolean asciiCases) {
    this.literals = literals;
    this.asciiCases = asciiCases;
    this.pivots = new int[literals.size()];
    this.first = new int[literals.size()];
    this.second = new int[literals.size()];
    for (int i = 0; i < pivots.length; i++) {
      pivots[i] = rarest(literals.get(i));
      first[i] = pivots[i];
      second[i] = pair(literals.get(i), pivots[i]);
    }
    this.bytes = allAscii() ? literals.stream()
        .map(l -> l.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new) : null;
  }

  /**
   * The index of the character of {@code literal} tested with its rarest one ({@code pivot}): the
   * rarest of the others, the pivot itself for a literal of one character.
   */
  private static int pair(String literal, int pivot) {
    int best = pivot;
    int bestRank = Integer.MAX_VALUE;
    for (int i = 0; i < literal.length(); i++) {
      int rank = frequency(literal.charAt(i));
      if (i != pivot && rank < bestRank) {
        best = i;
        bestRank = rank;
      }
    }
    return best;
  }

  /** Whether every literal is ASCII (so found in UTF-8 bytes as in their decoded text). */
  boolean allAscii() {
    return literals.stream().allMatch(l -> l.chars().allMatch(c -> c < 0x80));
  }

  /** A forward search of the literals in {@code hay}. */
  Occurrences in(String hay) {
    return new Occurrences(hay);
  }

  /**
   * A forward search of the literals (every one ASCII: {@link #allAscii}) in {@code hay[0,
   * length)}, UTF-8 bytes, where an ASCII byte is always that character.
   */
  ByteOccurrences in(byte[] hay, int length) {
    if (bytes == null) {
      throw new IllegalStateException("a literal is not ASCII");
    }
    return new ByteOccurrences(hay, length);
  }

  /** {@link Occurrences} in UTF-8 bytes. */
  final class ByteOccurrences {
    private final byte[] hay;
    private final int length;
    private final int[] next = new int[literals.size()];

    private ByteOccurrences(byte[] hay, int length) {
      this.hay = hay;
      this.length = length;
      Arrays.fill(next, -2);
    }

    /** The earliest occurrence of any literal at or after {@code from}; -1 when none. */
    int first(int from) {
      int p = Integer.MAX_VALUE;
      for (int i = 0; i < next.length; i++) {
        if (next[i] != -1 && next[i] < from) {
          next[i] = indexOf(hay, length, i, from);
        }
        if (next[i] >= 0) {
          p = Math.min(p, next[i]);
        }
      }
      return p == Integer.MAX_VALUE ? -1 : p;
    }
  }

  /**
   * The first occurrence at or after {@code from} of literal {@code lit} in {@code b[0, n)} (up to
   * ASCII case when {@link #asciiCases}): eight possible starts a step, ruled out together unless
   * one has the literal's two rarest characters ({@link #first}, {@link #second}) in place, found
   * by a zero-byte test of two words; then each such start is compared. -1 when none. No copy of
   * the bytes (as fast as the JVM's string search of a Latin-1 copy, without the copy).
   */
  private int indexOf(byte[] b, int n, int lit, int from) {
    byte[] l = bytes[lit];
    int len = l.length;
    int q1 = first[lit];
    int q2 = second[lit];
    // A letter's case bit is set in the text's bytes before they are compared (up to case).
    long fold1 = asciiCases && isLetter(l[q1]) ? ONES * 0x20 : 0;
    long fold2 = asciiCases && isLetter(l[q2]) ? ONES * 0x20 : 0;
    long want1 = ONES * (l[q1] & 0xFF);
    long want2 = ONES * (l[q2] & 0xFF);
    int last = n - len; // the last possible start
    int s = Math.max(0, from);
    int reach = Math.max(q1, q2) + Long.BYTES;
    for (; s <= last && s + reach <= n; s += Long.BYTES) {
      long w = (((long) LONGS.get(b, s + q1) | fold1) ^ want1)
          | (((long) LONGS.get(b, s + q2) | fold2) ^ want2);
      // 0x80 at least in the lowest zero byte of w (higher ones may be false: each is compared).
      long zero = (w - ONES) & ~w & HIGHS;
      while (zero != 0) {
        int at = s + (Long.numberOfTrailingZeros(zero) >>> 3);
        if (at <= last && matchesAt(b, at, l)) {
          return at;
        }
        zero &= zero - 1;
      }
    }
    for (; s <= last; s++) {
      if (matchesAt(b, s, l)) {
        return s;
      }
    }
    return -1;
  }

  private static boolean isLetter(byte c) {
    return c >= 'a' && c <= 'z';
  }

  /** Whether {@code b} holds literal {@code l} at {@code at} (up to ASCII case when folding). */
  private boolean matchesAt(byte[] b, int at, byte[] l) {
    for (int j = 0; j < l.length; j++) {
      byte c = b[at + j];
      byte want = l[j];
      if (c != want && !(asciiCases && isLetter(want) && c == want - 32)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The literals' occurrences in one text, searched forward only: each literal's next occurrence
   * is kept until the search passes it (-1 once it has none left).
   */
  final class Occurrences {
    private final String hay;
    private final int[] next = new int[literals.size()];
    private final int[] lowerAt = new int[literals.size()];
    private final int[] upperAt = new int[literals.size()];

    private Occurrences(String hay) {
      this.hay = hay;
      Arrays.fill(next, -2);
      Arrays.fill(lowerAt, -1);
      Arrays.fill(upperAt, -1);
    }

    /** The earliest occurrence of any literal at or after {@code from}; -1 when none. */
    int first(int from) {
      int p = Integer.MAX_VALUE;
      for (int i = 0; i < next.length; i++) {
        if (next[i] != -1 && next[i] < from) {
          next[i] = asciiCases ? foldIndexOf(hay, i, from, lowerAt, upperAt)
              : hay.indexOf(literals.get(i), from);
        }
        if (next[i] >= 0) {
          p = Math.min(p, next[i]);
        }
      }
      return p == Integer.MAX_VALUE ? -1 : p;
    }
  }

  /**
   * The first occurrence at or after {@code from} of literal {@code lit} up to ASCII case: its
   * pivot character ({@link #rarest}) is found in either case with the JVM's character search,
   * the positions kept in {@code lowerAt} and {@code upperAt} for the next, later, search, and
   * the rest compared there; -1 when none.
   */
  private int foldIndexOf(String text, int lit, int from, int[] lowerAt, int[] upperAt) {
    String literal = literals.get(lit);
    int q = pivots[lit];
    char lower = literal.charAt(q);
    char upper = lower >= 'a' && lower <= 'z' ? (char) (lower - 32) : lower;
    int n = text.length();
    int len = literal.length();
    int p = from + q;
    while (true) {
      if (lowerAt[lit] < p) {
        lowerAt[lit] = indexOrMax(text, lower, p);
      }
      if (upper != lower && upperAt[lit] < p) {
        upperAt[lit] = indexOrMax(text, upper, p);
      }
      int at = upper == lower ? lowerAt[lit] : Math.min(lowerAt[lit], upperAt[lit]);
      if (at == Integer.MAX_VALUE) {
        return -1;
      }
      int s = at - q;
      if (s + len <= n && foldsAt(text, s, literal)) {
        return s;
      }
      p = at + 1;
    }
  }

  private static int indexOrMax(String text, char c, int from) {
    int at = text.indexOf(c, from);
    return at < 0 ? Integer.MAX_VALUE : at;
  }

  /** Whether {@code text} holds {@code literal} (lower case ASCII) at {@code at}, up to case. */
  private static boolean foldsAt(String text, int at, String literal) {
    for (int j = 0; j < literal.length(); j++) {
      char c = text.charAt(at + j);
      char l = literal.charAt(j);
      if (c != l && !(l >= 'a' && l <= 'z' && c == l - 32)) {
        return false;
      }
    }
    return true;
  }

  /** The index of the character of {@code literal} least frequent in source code. */
  static int rarest(String literal) {
    int best = 0;
    int bestRank = Integer.MAX_VALUE;
    for (int i = 0; i < literal.length(); i++) {
      int rank = frequency(literal.charAt(i));
      if (rank < bestRank) {
        best = i;
        bestRank = rank;
      }
    }
    return best;
  }

  /**
   * Letters from least to most frequent in code (either case, counted in a Java repository);
   * white space and punctuation are common.
   */
  private static final String LETTERS = "zqkjyxwgfvhmdbpuclanoisrte";

  private static int frequency(char c) {
    char lower = c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    int letter = LETTERS.indexOf(lower);
    if (letter >= 0) {
      return 10 + letter;
    }
    if (c == ' ' || c == '\t' || c == '.' || c == '(' || c == ')' || c == ';' || c == ',') {
      return 100;
    }
    return c >= '0' && c <= '9' ? 20 : 0;
  }
}
