package dev.prismindex.index;

import dev.prismindex.embed.Embedder;
import dev.prismindex.memory.InMemoryIndexBackend;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The Lucene-free in-memory {@link RepositoryIndexBackend}: a real index of a repository's text files
 * held on the heap, for hosts that want the seam without the persistent engine, and the yardstick the
 * seam's budgets are measured on. Its implementation is not exported; this type is how a host builds
 * and observes one.
 *
 * <pre>{@code
 * InMemoryIndex backend = InMemoryIndex.builder(root).build();
 * IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(root,
 *     IndexedRepositoryOptions.builder(backend, RepositoryOperations.local(RepositoryLimits.defaults()))
 *         .allowedModes(EnumSet.of(SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC)).build());
 * ops.index().update(IndexUpdateRequest.of("rev-1", List.of(IndexFileChange.of("a.txt", ADD))));
 * }</pre>
 *
 * <p>It answers {@code indexed_literal} (exactly the literal scanner's matching semantics, from
 * trigram postings) and, unless built {@linkplain Builder#withoutSemantic() without it},
 * {@code semantic} (one vector per file); its {@link #capabilities()} say so, and the composite
 * refuses {@code lexical} and {@code hybrid} for it as unsupported. Updates are atomic, searches
 * never lock; the behaviour is documented on its implementation and pinned by the backend contract
 * test and {@code InMemoryIndexBackendTest}.
 */
public interface InMemoryIndex extends RepositoryIndexBackend {

  /**
   * What the index holds and what its updates did.
   *
   * @throws IllegalStateException after {@link #dispose()}
   */
  Stats stats();

  /** The id of the embedder whose vectors this index holds, or {@code null} without semantic. */
  @Nullable String embedderId();

  /** {@inheritDoc} Never throws {@link IOException}: a disposed index throws {@link IllegalStateException}. */
  @Override
  void dispose();

  /**
   * Starts a backend over the repository at {@code repositoryRoot}: by default it reads files there
   * ({@link ContentSource#files(Path)}), answers {@code semantic} with a
   * {@link dev.prismindex.embed.HashingEmbedder}, and uses the literal scanner's file and line
   * limits.
   */
  static Builder builder(Path repositoryRoot) {
    return new Builder(repositoryRoot);
  }

  /**
   * Where the in-memory index reads the content of a changed file. The default,
   * {@link #files(Path)}, reads the working tree; tests and benchmarks supply content directly.
   *
   * <p>Implementations must be safe to call from the thread that runs an update (one call at a time
   * per backend).
   */
  @FunctionalInterface
  interface ContentSource {

    /**
     * Reads the current content of one file.
     *
     * @param path a canonical repository-relative path
     *     ({@link dev.prismindex.repository.RelativePath#isCanonical})
     * @param maxBytes the largest file the index accepts; a larger file should not be read
     * @return the file's bytes (the index keeps this array: do not reuse it), or {@code null} when
     *     the path does not name a regular file that may be indexed (absent, a directory, a symbolic
     *     link, or larger than {@code maxBytes}); the index then drops the path
     * @throws IOException when the file exists but cannot be read; the whole update then fails and
     *     the index reports {@code failed} until a later update succeeds
     */
    byte @Nullable [] read(String path, long maxBytes) throws IOException;

    /**
     * Reads files under {@code root} the way the literal scanner sees them: never through a
     * symbolic link (neither the file nor any directory on its way from the root may be one), so
     * nothing outside the root is ever read, and never a file larger than {@code maxBytes}.
     *
     * @throws IOException when {@code root} cannot be resolved to a real directory
     */
    static ContentSource files(Path root) throws IOException {
      return InMemoryIndexBackend.fileContentSource(root);
    }
  }

  /**
   * Figures of an in-memory index: what it holds now and what its updates did so far. Byte figures
   * are computed from array lengths (with 16-byte array headers), not measured on the heap; a
   * benchmark measures the heap.
   *
   * @param files indexed files (live documents)
   * @param segments segments in the current snapshot
   * @param contentBytes bytes of file content held (the UTF-8 bytes as read)
   * @param pathBytes bytes of the encoded paths and their offsets
   * @param postingBytes bytes of the gram postings (keys, counts, offsets, lists)
   * @param vectorBytes bytes of the quantised vectors and their scales
   * @param totalBytes every byte above plus hashes, live bits and array headers
   * @param updates updates applied successfully
   * @param failedUpdates updates that failed (and left the index {@code failed})
   * @param filesIndexed files (re-)indexed because they were new or their content changed
   * @param filesUnchanged files skipped because their content hash (and bytes) were unchanged
   * @param filesDropped files dropped because the content source had no content for them (absent,
   *     not a regular file, a link, or oversize), or because they were binary
   * @param filesDeleted files removed by DELETE changes or {@code remove}
   * @param merges segment merges performed
   */
  record Stats(
      long files,
      int segments,
      long contentBytes,
      long pathBytes,
      long postingBytes,
      long vectorBytes,
      long totalBytes,
      long updates,
      long failedUpdates,
      long filesIndexed,
      long filesUnchanged,
      long filesDropped,
      long filesDeleted,
      long merges) {}

  /** Options of an {@link InMemoryIndex}; unset options take the defaults named below. */
  final class Builder {
    private final InMemoryIndexBackend.Builder delegate;

    private Builder(Path root) {
      this.delegate = InMemoryIndexBackend.builder(Objects.requireNonNull(root, "repositoryRoot"));
    }

    /** Where file content comes from (default: {@link ContentSource#files(Path)} of the root). */
    public Builder contentSource(ContentSource source) {
      delegate.contentSource(source);
      return this;
    }

    /**
     * The embedder of {@code semantic} search (default:
     * {@link dev.prismindex.embed.HashingEmbedder#HashingEmbedder()}); also undoes
     * {@link #withoutSemantic()}.
     */
    public Builder embedder(Embedder embedder) {
      delegate.embedder(embedder);
      return this;
    }

    /** Answers {@code indexed_literal} only: no vectors are computed or stored. */
    public Builder withoutSemantic() {
      delegate.withoutSemantic();
      return this;
    }

    /**
     * Larger files are dropped (default 8 MiB, the scanner's {@code maxFileBytes}; at most 64 MiB).
     *
     * @throws IllegalArgumentException outside 1..64 MiB
     */
    public Builder maxFileBytes(long bytes) {
      delegate.maxFileBytes(bytes);
      return this;
    }

    /**
     * The most UTF-8 bytes of a line a hit's snippet holds, as in the scanner (default 50 KiB, its
     * {@code maxLineBytes}; at most 1 MiB): every line is searched however long, and a longer
     * matching line is served as a window around the match; semantic hits never pick a longer
     * line. Set it to the scanner's value so that both give the same snippets.
     *
     * @throws IllegalArgumentException outside 1..1 MiB
     */
    public Builder maxLineBytes(int bytes) {
      delegate.maxLineBytes(bytes);
      return this;
    }

    /**
     * Builds the backend, empty.
     *
     * @throws IOException when no content source was given and the root is not a readable directory
     */
    public InMemoryIndex build() throws IOException {
      return delegate.build();
    }
  }
}
