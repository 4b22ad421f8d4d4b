package dev.prismindex.cli.output;

/**
 * Where an indexing run reports its progress. {@link #NONE} ignores it; {@link TerminalProgress}
 * draws one status line on a terminal's stderr.
 */
public interface Progress extends AutoCloseable {

  /** Ignores everything. */
  Progress NONE = new Progress() {};

  /** A phase began (for example "walking", "indexing", "embedding"). */
  default void phase(String name) {}

  /** Files processed so far, of {@code total} (0 when unknown). */
  default void files(long done, long total) {}

  /** Chunks embedded so far, of {@code total} (0 when unknown). */
  default void chunks(long done, long total) {}

  /** Removes the display. */
  @Override
  default void close() {}
}
