package dev.prismindex.memory;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.HashingEmbedder;
import dev.prismindex.index.IndexCapabilities;
import dev.prismindex.index.IndexDiagnostics;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.InMemoryIndex;
import dev.prismindex.index.InMemoryIndex.ContentSource;
import dev.prismindex.repository.CodingLimits;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link InMemoryIndex}, the Lucene-free reference backend: a real in-memory
 * index of a repository's text files. This package is not exported: hosts build it with
 * {@link InMemoryIndex#builder(Path)}; {@link #builder(Path)} here is the same builder plus test
 * seams.
 *
 * <h2>What an update does</h2>
 *
 * <p>One batch ({@link SnapshotUpdate}, whose comment has the rules) builds the next immutable
 * snapshot: unchanged files are kept, changed and new ones form one new segment, small segments
 * are merged. The batch is atomic: the next snapshot is published with one volatile write, or, if
 * anything fails (the content source throws, the embedder fails), nothing changes except the state.
 *
 * <h2>State</h2>
 *
 * <p>{@code empty} until the first update; {@code building} while an update runs; {@code ready} after
 * a successful update, attesting its {@code sourceRevision} and the time it finished as
 * {@code updatedAt}; {@code failed} after a failed update, until one succeeds (a failed batch must be
 * sent again). {@link #remove} drops paths without changing the state, revision or {@code updatedAt}
 * (it does not say the rest of the index is current). Diagnostics report the indexed files as
 * {@code entries}, {@link Stats#totalBytes()} as {@code bytes}, and the time of the last
 * change as {@code lastUpdatedAt}.
 *
 * <h2>Searching</h2>
 *
 * <p>Searches never lock: each reads the current snapshot once and answers from it, in every state
 * (the composite decides what is served), so a search that overlaps an update sees either the state
 * before or after it, never a mix. Both modes check the query's abort signal in their loops and then
 * throw {@link java.util.concurrent.CancellationException}.
 *
 * <p>{@code indexed_literal} has exactly the literal scanner's matching semantics (same
 * {@link dev.prismindex.repository.LiteralPattern}, same line limit), served from trigram postings of
 * case-folded content and paths and verified per candidate. A file matches when a line of its content
 * or its path contains the query. Hits come in three tiers, each in path order: content and path
 * (score 1.0), content only (0.75), path only (0.5). A content hit carries its first matching line's
 * number, column and text; a path-only hit carries line 0 and the path as its snippet.
 * {@code truncated} is set exactly when more matching files exist.
 *
 * <p>{@code semantic} ranks files by the cosine similarity of their vector (one per file, from the
 * path and the first 16 KiB of content) to the query's, clamped to [0, 1] (the score); files with no
 * positive similarity do not match; ties are broken by path. The hit's line is the first line sharing
 * the most query words, or, when none does, the file's first non-blank line (with {@code endLine} its
 * last line).
 *
 * <h2>Threads and lifetime</h2>
 *
 * <p>Updates, removals and {@link #dispose()} are serialised by one lock; searches and status calls
 * run concurrently with them and with each other. An update of 128 files or more spreads its
 * per-file work (grams, embeddings) over the common {@link java.util.concurrent.ForkJoinPool}; no
 * thread of its own is ever started. After {@link #dispose()} the snapshot is released
 * and every call throws {@link IllegalStateException}; a search already running finishes on its own
 * snapshot.
 */
public final class InMemoryIndexBackend implements InMemoryIndex {


  /** One published state: what status attests and what searches read. */
  private record Published(IndexState state, Snapshot snapshot, @Nullable String revision,
      @Nullable Long updatedAt, @Nullable Long changedAt) {
    Published withState(IndexState next) {
      return new Published(next, snapshot, revision, updatedAt, changedAt);
    }
  }

  private final Path root;
  private final ContentSource source;
  private final @Nullable Embedder embedder;
  private final long maxFileBytes;
  private final int maxLineBytes;
  private final LongSupplier clock;
  private final ReentrantLock writer = new ReentrantLock();
  private final MessageDigest sha256;

  private volatile @Nullable Published published =
      new Published(IndexState.EMPTY, Snapshot.EMPTY, null, null, null);

  private volatile long updates;
  private volatile long failedUpdates;
  private volatile long filesIndexed;
  private volatile long filesUnchanged;
  private volatile long filesDropped;
  private volatile long filesDeleted;
  private volatile long merges;

  private InMemoryIndexBackend(Builder builder, ContentSource source) {
    this.root = builder.root;
    this.source = source;
    this.embedder = builder.semantic ? builder.embedder : null;
    this.maxFileBytes = builder.maxFileBytes;
    this.maxLineBytes = builder.maxLineBytes;
    this.clock = builder.clock;
    try {
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  /**
   * Starts a backend over the repository at {@code repositoryRoot}: by default it reads files there
   * ({@link ContentSource#files(Path)}), answers {@code semantic} with a {@link HashingEmbedder}, and
   * uses the literal scanner's file and line limits. {@link InMemoryIndex#builder(Path)} delegates
   * here.
   */
  public static Builder builder(Path repositoryRoot) {
    return new Builder(repositoryRoot);
  }

  /** {@link ContentSource#files(Path)}: the working tree under {@code root}, never through a link. */
  public static ContentSource fileContentSource(Path root) throws IOException {
    return new FileContentSource(root);
  }

  /**
   * Options of an {@link InMemoryIndexBackend}; unset options take the defaults named below. The
   * options are documented on {@link InMemoryIndex.Builder}, which delegates here.
   */
  public static final class Builder {
    private final Path root;
    private @Nullable ContentSource contentSource;
    private Embedder embedder = new HashingEmbedder();
    private boolean semantic = true;
    private long maxFileBytes = RepositoryLimits.DEFAULT_MAX_SEARCH_FILE_BYTES;
    private int maxLineBytes = RepositoryLimits.DEFAULT_MAX_SEARCH_LINE_BYTES;
    private LongSupplier clock = System::currentTimeMillis;

    private Builder(Path root) {
      this.root = Objects.requireNonNull(root, "repositoryRoot").toAbsolutePath().normalize();
    }

    /** See {@link InMemoryIndex.Builder#contentSource}. */
    public Builder contentSource(ContentSource source) {
      this.contentSource = Objects.requireNonNull(source, "source");
      return this;
    }

    /** See {@link InMemoryIndex.Builder#embedder}. */
    public Builder embedder(Embedder embedder) {
      this.embedder = Objects.requireNonNull(embedder, "embedder");
      this.semantic = true;
      return this;
    }

    /** See {@link InMemoryIndex.Builder#withoutSemantic}. */
    public Builder withoutSemantic() {
      this.semantic = false;
      return this;
    }

    /** See {@link InMemoryIndex.Builder#maxFileBytes}. */
    public Builder maxFileBytes(long bytes) {
      this.maxFileBytes = CodingLimits.requirePositive(
          "maxFileBytes", bytes, RepositoryLimits.HARD_MAX_SEARCH_FILE_BYTES);
      return this;
    }

    /** See {@link InMemoryIndex.Builder#maxLineBytes}. */
    public Builder maxLineBytes(int bytes) {
      this.maxLineBytes = (int) CodingLimits.requirePositive(
          "maxLineBytes", bytes, RepositoryLimits.HARD_MAX_SEARCH_LINE_BYTES);
      return this;
    }

    /** Test seam: the clock of {@code updatedAt} (epoch milliseconds). */
    Builder clock(LongSupplier clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the backend, empty.
     *
     * @throws IOException when no content source was given and the root is not a readable directory
     */
    public InMemoryIndexBackend build() throws IOException {
      ContentSource source = contentSource != null ? contentSource : ContentSource.files(root);
      return new InMemoryIndexBackend(this, source);
    }
  }

  /**
   * {@code indexed_literal}, and {@code semantic} unless built
   * {@linkplain Builder#withoutSemantic() without it}; never {@code lexical} or {@code hybrid}, which
   * the composite therefore refuses as unsupported.
   */
  @Override
  public IndexCapabilities capabilities() {
    return embedder != null ? IndexCapabilities.SEMANTIC : IndexCapabilities.LITERAL_ONLY;
  }

  /**
   * Applies a batch atomically (see the class documentation). RENAME changes are accepted too (as a
   * DELETE of the old path and an ADD of the new one); when a path appears more than once, its last
   * change wins.
   *
   * @throws IllegalArgumentException for a missing revision or change list, a change without a kind,
   *     or a path that is not canonical ({@code a/b}; no empty, {@code .} or {@code ..} segment, no
   *     backslash or control character); the index is then unchanged
   * @throws IOException when the content source fails; the index is then {@code failed}
   * @throws IllegalStateException after {@link #dispose()}
   */
  @Override
  public void update(IndexUpdateRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    String revision = request.sourceRevision();
    if (revision == null || revision.isEmpty()) {
      throw new IllegalArgumentException("sourceRevision is required");
    }
    Map<String, IndexFileChangeKind> changes = ChangeList.of(request.changes());
    write(changes, true, (before, next) -> {
      long now = clock.getAsLong();
      return new Published(IndexState.READY, next, revision, now, now);
    });
  }

  /**
   * Drops {@code paths} (an absent path is ignored). State, revision and {@code updatedAt} are kept.
   *
   * @throws IllegalArgumentException for a missing list or a path that is not canonical
   * @throws IllegalStateException after {@link #dispose()}
   */
  @Override
  public void remove(IndexRemoveRequest request) {
    Objects.requireNonNull(request, "request");
    List<@Nullable String> paths = request.paths();
    if (paths == null) {
      throw new IllegalArgumentException("paths are required");
    }
    Map<String, IndexFileChangeKind> changes = ChangeList.deletions(paths);
    if (changes.isEmpty()) {
      requireOpen();
      return;
    }
    try {
      write(changes, false, (before, next) -> new Published(before.state, next, before.revision,
          before.updatedAt, clock.getAsLong()));
    } catch (IOException deletesReadNothing) {
      throw new java.io.UncheckedIOException(deletesReadNothing);
    }
  }

  /**
   * Answers {@code indexed_literal} or {@code semantic} from the current snapshot.
   *
   * @throws java.util.concurrent.CancellationException when the query's signal is aborted
   * @throws dev.prismindex.repository.RepositoryException for an empty query or one over 4 096 UTF-8
   *     bytes ({@code indexed_literal})
   * @throws UnsupportedOperationException for {@code semantic} on a backend without it
   * @throws IllegalArgumentException for {@code literal} (the scanner's), {@code lexical} and
   *     {@code hybrid} (not declared in {@link #capabilities()}, so the composite never sends them)
   * @throws IllegalStateException after {@link #dispose()}
   */
  @Override
  public IndexQueryResult search(IndexQuery query) {
    Objects.requireNonNull(query, "query");
    Snapshot snapshot = requireOpen().snapshot;
    MemoryLiteralSearcher.checkAbort(query.signal());
    if (query.mode() == SearchMode.INDEXED_LITERAL) {
      return MemoryLiteralSearcher.search(snapshot, query, maxLineBytes);
    }
    if (query.mode() == SearchMode.SEMANTIC) {
      Embedder semantic = embedder;
      if (semantic == null) {
        throw new UnsupportedOperationException("this index was built without semantic search");
      }
      return MemorySemanticSearcher.search(snapshot, query, semantic, maxLineBytes);
    }
    throw new IllegalArgumentException("the in-memory index does not answer " + query.mode());
  }

  /**
   * The current state, attested revision and time, and diagnostics.
   *
   * @throws IllegalStateException after {@link #dispose()}
   */
  @Override
  public IndexStatus status() {
    Published current = requireOpen();
    Snapshot snapshot = current.snapshot;
    return new IndexStatus(current.state, current.revision, current.updatedAt,
        new IndexDiagnostics(snapshot.liveDocs, snapshot.byteSize(), current.changedAt));
  }

  /**
   * What the index holds and what its updates did.
   *
   * @throws IllegalStateException after {@link #dispose()}
   */
  @Override
  public Stats stats() {
    Snapshot snapshot = requireOpen().snapshot;
    long content = 0;
    long paths = 0;
    long postings = 0;
    long vectors = 0;
    for (SegmentView view : snapshot.views) {
      content += view.segment.contentBytes();
      paths += view.segment.pathBytes();
      postings += view.segment.postingBytes();
      vectors += view.segment.vectorBytes();
    }
    return new Stats(snapshot.liveDocs, snapshot.views.size(), content, paths,
        postings, vectors, snapshot.byteSize(), updates, failedUpdates, filesIndexed,
        filesUnchanged, filesDropped, filesDeleted, merges);
  }

  @Override
  public @Nullable String embedderId() {
    return embedder == null ? null : embedder.id();
  }

  /** Releases the index (waiting for a running update); idempotent. Later calls throw. */
  @Override
  public void dispose() {
    writer.lock();
    try {
      published = null;
    } finally {
      writer.unlock();
    }
  }

  @Override
  public String toString() {
    Published current = published;
    return "InMemoryIndexBackend[" + root + ", "
        + (current == null ? "disposed" : current.state.wireName() + ", "
            + current.snapshot.liveDocs + " files") + ", "
        + (embedder == null ? "literal only" : embedder.id()) + "]";
  }

  // ------------------------------------------------------------------------------------ internals

  /** What a written batch publishes, given the state before it and its snapshot. */
  private interface Publication {
    Published of(Published before, Snapshot next);
  }

  /**
   * Applies {@code changes} to the current snapshot under the writer lock and publishes what
   * {@code publication} makes of it; a batch that fails leaves the index {@code failed} and is
   * rethrown. An {@code update} (not a remove) is {@code building} while it runs and counts in
   * {@link Stats#updates()} or, failed, {@link Stats#failedUpdates()}.
   */
  private void write(Map<String, IndexFileChangeKind> changes, boolean update,
      Publication publication) throws IOException {
    writer.lock();
    try {
      Published before = requireOpen();
      if (update) {
        published = before.withState(IndexState.BUILDING);
      }
      SnapshotUpdate batch = new SnapshotUpdate(source, embedder, maxFileBytes, sha256);
      Snapshot next;
      try {
        next = batch.apply(before.snapshot, changes);
      } catch (IOException | RuntimeException | Error failure) {
        if (update) {
          failedUpdates++;
        }
        published = before.withState(IndexState.FAILED);
        throw failure;
      }
      published = publication.of(before, next);
      if (update) {
        updates++;
      }
      count(batch);
    } finally {
      writer.unlock();
    }
  }

  /** Adds a published batch's counts to the statistics. Called under the writer lock. */
  private void count(SnapshotUpdate batch) {
    filesIndexed += batch.indexed;
    filesUnchanged += batch.unchanged;
    filesDropped += batch.dropped;
    filesDeleted += batch.deleted;
    merges += batch.merges;
  }

  private Published requireOpen() {
    Published current = published;
    if (current == null) {
      throw new IllegalStateException("the in-memory index is disposed");
    }
    return current;
  }
}
