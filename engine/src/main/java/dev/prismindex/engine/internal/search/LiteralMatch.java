package dev.prismindex.engine.internal.search;

/**
 * One exact literal match.
 *
 * @param path repository-relative path
 * @param line 1-based line
 * @param column 1-based UTF-16 column of the first occurrence in the line (as the scanner reports
 *     it), or 0 for a match on the path alone
 * @param text the line (or the path, for a path match on an empty first line); a line over
 *     {@link LiteralSearcher#MAX_TEXT_BYTES} UTF-8 bytes is cut to its window around the match
 *     ({@link dev.prismindex.repository.LiteralPattern#window})
 * @param textStart the UTF-16 index in the line at which {@code text} starts (0 unless cut)
 */
public record LiteralMatch(String path, int line, int column, String text, int textStart) {

  /** A match whose text is the whole line. */
  public LiteralMatch(String path, int line, int column, String text) {
    this(path, line, column, text, 0);
  }

  /** Whether this is a path-only match (the query occurs in the path, not in the content). */
  public boolean pathOnly() {
    return column == 0;
  }
}
