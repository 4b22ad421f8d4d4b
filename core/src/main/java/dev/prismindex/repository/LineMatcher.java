package dev.prismindex.repository;

import org.jspecify.annotations.Nullable;

/** How {@link FileScanner} matches a line: a literal's one span, or every span of a regex. */
abstract class LineMatcher {
  /** Whether lines are read for a regex ({@link RegexPattern#forEachLine}). */
  abstract boolean regexLines();

  /** The regex matcher, which can search a whole file at once; null for a literal. */
  RegexPattern.@Nullable Matcher whole() {
    return null;
  }

  /**
   * Appends the spans of the matches of {@code line} to {@code out} (0-based, end exclusive,
   * pairs); none when it does not match.
   */
  abstract void match(String line, IntPairs out);

  static LineMatcher literal(LiteralPattern pattern) {
    return new LineMatcher() {
      @Override
      boolean regexLines() {
        return false;
      }

      @Override
      void match(String line, IntPairs out) {
        int column = pattern.column(line);
        if (column > 0) {
          out.add(column - 1, pattern.endColumn(line) - 1);
        }
      }
    };
  }

  static LineMatcher regex(RegexPattern pattern) {
    RegexPattern.Matcher matcher = pattern.matcher();
    return new LineMatcher() {
      @Override
      boolean regexLines() {
        return true;
      }

      @Override
      RegexPattern.Matcher whole() {
        return matcher;
      }

      @Override
      void match(String line, IntPairs out) {
        matcher.forEach(line, (s, e) -> {
          if (s < e || out.isEmpty()) {
            out.add(s, e); // an empty match only as the first: it says where the line matched
          }
          return true;
        });
      }
    };
  }

  /** A growable list of int pairs: the spans {@link #match} appends. */
  static final class IntPairs {
    int[] values = new int[8];
    int size;

    void add(int a, int b) {
      if (size + 2 > values.length) {
        values = java.util.Arrays.copyOf(values, values.length * 2);
      }
      values[size++] = a;
      values[size++] = b;
    }

    boolean isEmpty() {
      return size == 0;
    }
  }
}
