package dev.prismindex.cli.output;

import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexProgressListener;

/**
 * Where an indexing run reports its progress: the engine's {@link IndexProgress} snapshots, and a
 * {@link #close} that removes the display. {@link #NONE} ignores them; {@link TerminalProgress}
 * draws one status line on a terminal's stderr.
 */
public interface Progress extends IndexProgressListener, AutoCloseable {

  /** Ignores everything. */
  Progress NONE = progress -> {};

  /** Removes the display. */
  @Override
  default void close() {}
}
