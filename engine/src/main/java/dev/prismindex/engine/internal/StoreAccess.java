package dev.prismindex.engine.internal;

import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import dev.prismindex.engine.spi.StoreHealth;
import dev.prismindex.engine.spi.StoreReader;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the kernel's shared parts (the query planner, the seam, the staleness probe, the engine's
 * status) need of the store an index was assembled from: the local Lucene store ({@code
 * store.IndexStore}) or a plugged {@code spi.Store} ({@link PluggedStore}).
 */
public interface StoreAccess extends Closeable {

  /** A function over a reader of the last commit. */
  @FunctionalInterface
  interface ReaderFunction<T> {
    T apply(StoreReader reader) throws IOException;
  }

  /**
   * Runs {@code fn} over a reader of the last commit, or returns {@code empty} when the store has
   * no index yet.
   *
   * @throws CorruptIndexException when the read fails because the index is damaged
   */
  <T> T read(ReaderFunction<T> fn, T empty) throws IOException;

  /** The commit record and layout of the index, or null when the store has no index yet. */
  @Nullable CommitRecord record() throws IOException;

  /** The manifest of the last commit (mutable). */
  Map<String, FileEntry> manifest() throws IOException;

  /** The files the last commit remembers as left out by their content (every path). */
  Map<String, SkippedFile> skipped() throws IOException;

  /** What the store says about its index now. */
  StoreHealth health() throws IOException;

  /**
   * Refuses to serve an index already known to be damaged (cheap: no read).
   *
   * @throws CorruptIndexException naming the damage
   */
  void checkUndamaged() throws CorruptIndexException;

  /**
   * Verifies the index ({@code HybridIndex.verify}).
   *
   * @throws CorruptIndexException when it is damaged
   */
  void verify(boolean thorough) throws IOException;

  /**
   * Whether an index with {@code record} can serve this process's vectors: the local store always
   * (a run adds them), a plugged store only when its index was created pinning a model (or does not
   * exist yet).
   */
  boolean holdsVectors(@Nullable CommitRecord record);
}
