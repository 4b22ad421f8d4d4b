package dev.prismindex.engine.spi;

import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The one write of a run, begun by {@link Store#beginWrite}: the kernel's pipeline puts the run's
 * documents into {@link #documents()} (from several worker threads), then either commits them
 * with the run's record, or closes the write without committing (a failed run).
 *
 * <p>What a commit promises: every document the sink accepted before it is searchable when it
 * returns, together with the record; a write closed without a commit leaves the previous commit's
 * answers (a store that cannot roll back, such as a cluster, leaves the record saying "writing",
 * which {@link Store#health()} reports and the next write repairs).
 */
public interface StoreWrite extends Closeable {

  /**
   * Whether the write before this one began and never committed: the kernel then re-reads every
   * file (stat data is no proof of what the index holds) and the store reconciles its documents
   * with the manifest at {@link #commit}.
   */
  boolean resumed();

  /** Where the run's documents go. Thread-safe. */
  DocumentSink documents();

  /**
   * Sends what the sink still holds and commits the run with {@code record} (the store keeps at
   * least the keys of {@link CommitRecord} it has room for; {@link Store#record()} gives them
   * back).
   *
   * @param manifest every file's entry after the run, when the run saw the whole manifest ({@link
   *     #resumed()} always does): a store that may hold documents no entry accounts for (left by
   *     an interrupted write) deletes them; null after a run over part of the repository
   * @throws IOException when the store refuses documents or the record (what it acknowledged
   *     stays; the next run completes the index)
   */
  void commit(CommitRecord record, @Nullable Map<String, FileEntry> manifest)
      throws IOException;

  /** Ends the write; without a {@link #commit}, discards what the store can discard. Idempotent. */
  @Override
  void close() throws IOException;
}
