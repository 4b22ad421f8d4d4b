package dev.prismindex.engine.search;

/**
 * One exact literal match.
 *
 * @param path repository-relative path
 * @param line 1-based line
 * @param column 1-based UTF-16 column of the first occurrence in the line (as the scanner reports
 *     it), or 0 for a match on the path alone
 * @param text the whole line (or the path, for a path match on an empty first line)
 */
public record LiteralMatch(String path, int line, int column, String text) {
  /** Whether this is a path-only match (the query occurs in the path, not in the content). */
  public boolean pathOnly() {
    return column == 0;
  }
}
