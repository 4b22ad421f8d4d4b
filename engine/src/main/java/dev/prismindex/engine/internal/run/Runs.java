package dev.prismindex.engine.internal.run;

import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import java.io.IOException;
import java.util.List;

/**
 * The runs of an open index, whatever its store: a refresh, a seam update, a seam removal, one at
 * a time, and the state the seam's status reports. The local store's are {@link IndexJobs} (over
 * {@link WriteRun}: one Lucene commit with the embedding cache), a plugged store's {@link
 * StoreRun} (over its {@code spi.StoreWrite}).
 */
public abstract class Runs {

  /** One write at a time, and the state below (the one copy of it, whatever the store). */
  final RunGate gate = new RunGate();

  Runs() {}

  /** An action run while no write runs. */
  @FunctionalInterface
  public interface Exclusive {
    void run() throws IOException;
  }

  /** See {@code HybridIndex.refresh}. */
  public abstract IndexRunStats refresh(RefreshOptions refresh) throws IOException;

  /**
   * Re-indexes exactly {@code upserts}, drops {@code deletes}, records {@code revision} (paths
   * checked and normalised by the caller).
   */
  public abstract void update(List<String> upserts, List<String> deletes, String revision)
      throws IOException;

  /** Drops the paths (checked and normalised by the caller). */
  public abstract void remove(List<String> paths) throws IOException;

  /** Whether the last run failed (until the next one succeeds). */
  public final boolean failed() {
    return gate.failed();
  }

  /** When the last successful run of this process ended its lexical phase (epoch ms), or 0. */
  public final long verifiedAtMs() {
    return gate.verifiedAtMs();
  }

  /** Whether a run is under way. */
  public final boolean running() {
    return gate.running();
  }

  /** Whether {@link #close} ran. */
  public final boolean closed() {
    return gate.closed();
  }

  /**
   * Marks the index closed once no run is under way, then runs {@code action} (closing the parts).
   * Idempotent: the action runs once.
   */
  public final void close(Exclusive action) throws IOException {
    gate.close(action);
  }
}
