package dev.prismindex.repository;

import java.util.Objects;

/**
 * One match in its line: where it lies, in 1-based UTF-16 columns with {@code endColumn}
 * exclusive (a match of three units at the start of a line is {@code (1, 4)}; an empty match has
 * {@code endColumn == column}), and the text it matched, cut to {@value #MAX_TEXT_CHARS} units
 * (a match can span a whole long line).
 *
 * @param column the first unit of the match, 1-based
 * @param endColumn one past its last unit
 * @param text the matched text, at most {@value #MAX_TEXT_CHARS} UTF-16 units (never ending
 *     between the two units of a surrogate pair)
 */
public record MatchSpan(int column, int endColumn, String text) {

  /** The longest text a span carries. */
  public static final int MAX_TEXT_CHARS = 400;

  /**
   * Validates the span.
   *
   * @throws IllegalArgumentException unless {@code 1 <= column <= endColumn}
   */
  public MatchSpan {
    Objects.requireNonNull(text, "text");
    if (column < 1 || endColumn < column) {
      throw new IllegalArgumentException("invalid match span " + column + ".." + endColumn);
    }
  }

  /**
   * The span of {@code line[start, end)} (0-based UTF-16 indices, as a matcher reports them),
   * its text cut to {@value #MAX_TEXT_CHARS} units.
   */
  public static MatchSpan in(String line, int start, int end) {
    int cut = Math.min(end, start + MAX_TEXT_CHARS);
    if (cut < end && cut > start && Character.isHighSurrogate(line.charAt(cut - 1))) {
      cut--;
    }
    return new MatchSpan(start + 1, end + 1, line.substring(start, cut));
  }
}
