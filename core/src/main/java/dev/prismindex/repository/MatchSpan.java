package dev.prismindex.repository;

/**
 * Where one match lies in its line: 1-based UTF-16 columns, {@code endColumn} exclusive, so a
 * match of three units at the start of a line is {@code (1, 4)} and an empty match has
 * {@code endColumn == column}.
 *
 * @param column the first unit of the match, 1-based
 * @param endColumn one past its last unit
 */
public record MatchSpan(int column, int endColumn) {

  /**
   * Validates the span.
   *
   * @throws IllegalArgumentException unless {@code 1 <= column <= endColumn}
   */
  public MatchSpan {
    if (column < 1 || endColumn < column) {
      throw new IllegalArgumentException("invalid match span " + column + ".." + endColumn);
    }
  }
}
