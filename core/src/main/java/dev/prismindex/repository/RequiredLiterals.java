package dev.prismindex.repository;

import java.util.Arrays;
import java.util.List;

/**
 * The literals one of which every matching line of a regex holds ({@link
 * dev.prismindex.internal.regex.Prefilter}), and their search in a text: as they are with the JVM's
 * string search, or up to ASCII case from each literal's rarest character ({@link #rarest}).
 */
final class RequiredLiterals {

  private final List<String> literals;
  /** Whether the literals (lower case) are looked for up to ASCII case. */
  private final boolean asciiCases;
  /** Per literal, the index of its character looked for first (the rarest in code). */
  private final int[] pivots;

  RequiredLiterals(List<String> literals, boolean asciiCases) {
    this.literals = literals;
    this.asciiCases = asciiCases;
    this.pivots = new int[literals.size()];
    for (int i = 0; i < pivots.length; i++) {
      pivots[i] = rarest(literals.get(i));
    }
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
