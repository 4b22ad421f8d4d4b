package dev.prismindex.engine.spi;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Candidates out: one commit of a store, read for one search ({@link Store#reader()}). Each
 * signal gives its candidates (BM25 over the ranked fields, k-NN over the chunk vectors, the
 * files an exact search must verify); the kernel ranks, fuses, locates and verifies them, the
 * same way for every store, so a store that returns the same candidates gives the same hits.
 *
 * <p>Chunk ids ({@link Candidate#chunk()}) are small integers meaningful only within this reader:
 * the kernel passes them back to {@link #chunk} and {@link #prefetchFiles}. Used by one thread at a
 * time; {@link #close} releases what the reader holds (the commit it reads).
 */
public interface StoreReader extends Closeable {

  /**
   * The record of the commit this reader reads, with the index's layout ({@link
   * Store#record()}); {@link CommitRecord#EMPTY} when the store has no index.
   *
   * @throws IOException when the store cannot be read
   */
  CommitRecord commit() throws IOException;

  /**
   * The top {@link LexicalQuery#depth()} CHUNK documents that match the query's filter and at
   * least one of its parts, by the sum of the parts' BM25 scores (with the kernel's similarity:
   * see {@link StoreFields}), best first; equal scores by path, then first line, never by the
   * store's document order (which depends on the index's history), so a fresh and an updated
   * index of one tree answer alike. Each candidate carries the score of every part ({@link
   * Candidate#parts()}).
   *
   * @throws IOException when the store cannot be read
   */
  List<Candidate> lexical(LexicalQuery query) throws IOException;

  /**
   * The {@link VectorQuery#depth()} chunks nearest to the query's unit vector among those its
   * filter selects, best first, scored by the cosine of the query to the chunk's stored vector
   * codes ({@link VectorCodes#cosine}), not by the store's approximation; ties as for {@link
   * #lexical}. Empty when the commit has no vectors.
   *
   * @throws IOException when the store cannot be read
   */
  List<Candidate> nearest(VectorQuery query) throws IOException;

  /**
   * The files an exact search must verify: the indexed files at or below one of {@code scopes}
   * (every file when empty) whose n-grams ({@link FileGrams}) satisfy {@code grams}, sorted by
   * {@link String#compareTo}. A store may return more (it may, say, intersect only the rarest grams
   * of an AND) but never fewer: verification against the working tree decides.
   *
   * @throws IOException when the store cannot be read
   */
  List<String> files(GramQuery grams, List<String> scopes) throws IOException;

  /**
   * The paths of the indexed files at or below one of {@code scopes} (all when empty), in any
   * order, for the kernel to build a file filter ({@link LexicalQuery#filter()}) from its
   * languages and globs. May return paths outside the scopes.
   *
   * @throws IOException when the store cannot be read
   */
  Collection<String> paths(List<String> scopes) throws IOException;

  /** The stored fields of the chunk {@code chunk} returned by this reader. */
  ChunkDoc chunk(int chunk) throws IOException;

  /** The manifest entry of {@code path} in this commit, or null when it has none. */
  @Nullable FileEntry file(String path) throws IOException;

  /**
   * Announces that {@link #file} is about to be asked for the files of {@code chunks} (the
   * ranked candidates), so that a remote store can fetch their entries in one request instead of
   * one each. A store that reads an entry as cheaply one at a time does nothing.
   */
  default void prefetchFiles(Collection<Integer> chunks) throws IOException {}

  /**
   * Announces the ranked requests a search is about to make: {@link #lexical} with each of {@code
   * lexical}, then {@link #nearest} with {@code vector} (null: none), so that a remote store can
   * send them in one round trip and answer each later call with an equal query from it. A request
   * may be announced on speculation and never asked. Does nothing by default.
   */
  default void prefetchRanked(List<LexicalQuery> lexical, @Nullable VectorQuery vector)
      throws IOException {}

  /**
   * The manifest entry of {@code path} in {@code repository}: for a reader of several repositories
   * ({@link RepositoryGroup#reader()}, whose chunks name their {@link ChunkDoc#repository()}); a
   * reader of one repository is asked with null and answers {@link #file(String)}.
   */
  default @Nullable FileEntry file(@Nullable String repository, String path) throws IOException {
    return file(path);
  }

  /**
   * The content of {@code path} (in {@code repository}, null for a reader of one repository) as
   * the commit indexed it, when the store keeps a copy of each file; null when it keeps none or
   * has no such file. The kernel verifies and locates hits in it where it has no working tree of
   * the repository (a cluster searched from a machine without the checkouts).
   */
  default byte @Nullable [] content(@Nullable String repository, String path)
      throws IOException {
    return null;
  }

  /**
   * Announces that {@link #content} is about to be asked for {@code paths} of {@code repository},
   * so that a remote store can fetch them in one request. Does nothing by default.
   */
  default void prefetchContent(@Nullable String repository, Collection<String> paths)
      throws IOException {}

  /**
   * {@link #files} in each repository the reader reads, by repository name (sorted), each list
   * sorted as {@link #files} sorts it: for a reader of several repositories. A reader of one
   * repository answers its one list under the name {@code ""}.
   */
  default SortedMap<String, List<String>> filesByRepository(GramQuery grams, List<String> scopes)
      throws IOException {
    SortedMap<String, List<String>> out = new TreeMap<>();
    out.put("", files(grams, scopes));
    return out;
  }

  /**
   * {@link #filesByRepository}'s entries in the same order, a repository's list read only when
   * the iteration reaches it (a remote reader lists a few repositories a request), for a search
   * that stops at a limit. The iteration throws {@link java.io.UncheckedIOException} when a read
   * fails.
   */
  default Iterable<Map.Entry<String, List<String>>> filesRepositoryByRepository(GramQuery grams,
      List<String> scopes) throws IOException {
    return filesByRepository(grams, scopes).entrySet();
  }

  @Override
  default void close() throws IOException {}
}
