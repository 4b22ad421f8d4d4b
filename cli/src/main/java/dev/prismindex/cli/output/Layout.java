package dev.prismindex.cli.output;

/** How human output shows a search's hits ({@link HumanPrinter}). */
public enum Layout {
  /** A header, then per hit {@code path:line  symbol  score} and the line indented (default). */
  BLOCKS,
  /** grep's {@code path:line:text}, one line per hit, no header ({@code -n}). */
  LINES,
  /** The paths of the files with hits, one per line, in the order of their best hit ({@code -l}). */
  FILES,
  /** {@code path:count} per file with hits, in the order of their best hit ({@code -c}). */
  COUNT;

  /**
   * Whether stdout holds only grep-style lines: no header, no summary line (those go to stderr
   * when they say something).
   */
  public boolean plain() {
    return this != BLOCKS;
  }
}
