package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.chunk.Chunk;
import dev.prismindex.engine.internal.pipeline.ChunkKeys;
import dev.prismindex.engine.internal.pipeline.Indexer;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where an {@link Indexer} run puts the documents it decides on: the local Lucene index ({@link
 * LuceneSink}) or a search cluster. One pipeline (walk, manifest rules, BLAKE3, chunking) feeds
 * every store through it. Called from the indexer's worker threads: implementations are
 * thread-safe. A run's writes become visible together, when the caller commits.
 */
public interface DocumentSink {

  /**
   * Stores a new or changed file: its FILE document (manifest entry and n-grams) and its chunks,
   * replacing whatever documents the path had.
   *
   * @param grams the n-grams of the file's lines and path
   * @param chunkHashes the BLAKE3 hash of each chunk's embedded text, in chunk order (the chunks'
   *     vector keys); null when the run writes no keys ({@link ChunkKeys}), which a store
   *     that always keys its chunks refuses
   * @param replacing whether the path may have documents (indexed or remembered as skipped); when
   *     false the store may add without deleting
   */
  void putFile(FileEntry entry, GramSet grams, List<Chunk> chunks,
      @Nullable List<byte[]> chunkHashes, boolean replacing) throws IOException;

  /** Same content, new stat data: replaces the file's FILE document only. */
  void restat(FileEntry entry, GramSet grams) throws IOException;

  /**
   * Records that a file is left out by its content.
   *
   * @param wasIndexed the path had a FILE document and chunks, which the record replaces
   * @param wasSkipped the path had a record, which this one replaces
   */
  void putSkipped(SkippedFile record, boolean wasIndexed, boolean wasSkipped) throws IOException;

  /** Deletes every document of {@code path} (FILE, chunks, skip record). */
  void deletePath(String path) throws IOException;

  /** Deletes the skip record of {@code path}. */
  void deleteSkip(String path) throws IOException;

  /**
   * Writes out documents the sink holds in memory, so that the commit after a run has less to do
   * on one thread. The indexer calls it on each of its workers at once after the last file: a
   * store with one buffer per thread writes them side by side. A store without buffers does
   * nothing.
   */
  default void flush() throws IOException {}
}
