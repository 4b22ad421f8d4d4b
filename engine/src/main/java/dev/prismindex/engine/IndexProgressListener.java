package dev.prismindex.engine;

/**
 * Receives {@link IndexProgress} snapshots of a {@link HybridIndex#refresh}: once at every phase
 * change and at most about every 100 ms within a phase, always from one thread at a time (calls
 * never overlap), never after the run returns. Keep it fast. An exception thrown by the listener
 * aborts the run like an I/O error: during {@link IndexProgress.Phase#EMBEDDING} the vectors
 * embedded so far are committed first (the lexical commit is already done), before that the run
 * rolls back.
 */
@FunctionalInterface
public interface IndexProgressListener {

  /** A listener that ignores everything. */
  IndexProgressListener NONE = progress -> {};

  /** Called with the current state of the run. */
  void onProgress(IndexProgress progress);
}
