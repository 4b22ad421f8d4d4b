package dev.prismindex.engine.spi;

import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Documents in: where one run of the kernel's pipeline puts what it decided for each file (walk,
 * manifest rules, BLAKE3, chunking happen once, in the kernel, for every store). Called from the
 * pipeline's worker threads: implementations are thread-safe. A run's documents become visible
 * together, when its write commits ({@link StoreWrite#commit}).
 *
 * <p>Each call names what the path had before (its manifest entry, whether it had a skip
 * record), so a store replaces exactly that without reading its own manifest again.
 */
public interface DocumentSink {

  /**
   * Stores a new or changed file: its FILE document (the manifest entry and the n-grams of exact
   * search) and its chunks, replacing whatever documents the path had.
   *
   * @param grams the n-grams of the file's lines and path
   * @param chunks the file's chunks in order (empty for a file indexed for exact search only);
   *     the ordinal of a chunk is its index here
   * @param keys the vector key of each chunk (the BLAKE3 hash of the text it is embedded as), in
   *     chunk order; null when the run writes no keys, which a store that keys every chunk
   *     refuses with {@link IllegalArgumentException}
   * @param previous the path's manifest entry before the run, or null when it had none
   * @param hadSkipRecord whether the path had a skip record ({@link SkippedFile}), which goes
   */
  void putFile(FileEntry entry, FileGrams grams, List<Chunk> chunks, @Nullable List<byte[]> keys,
      @Nullable FileEntry previous, boolean hadSkipRecord) throws IOException;

  /** Same content, new stat data: replaces the file's FILE document only. */
  void restat(FileEntry entry, FileGrams grams) throws IOException;

  /**
   * {@link #putFile} with the file's bytes as indexed, for a store that keeps a copy of each
   * file ({@link StoreReader#content}): the pipeline calls this one, and a store that keeps no
   * copy leaves the default, which drops them.
   *
   * @param content the file's bytes (the store must not change them)
   */
  default void putFile(FileEntry entry, FileGrams grams, List<Chunk> chunks,
      @Nullable List<byte[]> keys, @Nullable FileEntry previous, boolean hadSkipRecord,
      byte[] content) throws IOException {
    putFile(entry, grams, chunks, keys, previous, hadSkipRecord);
  }

  /** {@link #restat} with the file's bytes, as {@link #putFile(FileEntry, FileGrams, List, List,
   * FileEntry, boolean, byte[])}. */
  default void restat(FileEntry entry, FileGrams grams, byte[] content) throws IOException {
    restat(entry, grams);
  }

  /**
   * Records that a file is left out by its content.
   *
   * @param previous the path's manifest entry before the run (its documents go), or null
   * @param hadSkipRecord whether the path had a skip record, which this one replaces
   */
  void putSkipped(SkippedFile record, @Nullable FileEntry previous, boolean hadSkipRecord)
      throws IOException;

  /** Deletes every document of an indexed file (FILE, chunks, skip record). */
  void deletePath(FileEntry previous) throws IOException;

  /** Deletes the skip record of {@code path}. */
  void deleteSkip(String path) throws IOException;

  /**
   * Writes out documents the sink holds in memory, so that the commit after a run has less to do
   * on one thread. The pipeline calls it on each of its workers at once after the last file of a
   * large run: a store with one buffer per thread writes them side by side. A store without
   * buffers does nothing.
   */
  default void flush() throws IOException {}
}
