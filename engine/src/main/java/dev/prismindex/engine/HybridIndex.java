package dev.prismindex.engine;

import dev.prismindex.engine.analysis.CodeAnalyzer;
import dev.prismindex.engine.chunk.Chunker;
import dev.prismindex.engine.search.LexicalSearcher;
import dev.prismindex.engine.search.LiteralMatch;
import dev.prismindex.engine.search.LiteralResult;
import dev.prismindex.engine.search.LiteralSearcher;
import dev.prismindex.engine.store.FileEntry;
import dev.prismindex.engine.store.FileReader;
import dev.prismindex.engine.store.Hashing;
import dev.prismindex.engine.store.IndexStore;
import dev.prismindex.engine.store.Indexer;
import dev.prismindex.engine.store.Schema;
import dev.prismindex.engine.walk.FileRules;
import dev.prismindex.engine.walk.RepoWalker;
import dev.prismindex.engine.walk.WalkResult;
import dev.prismindex.index.IndexCapabilities;
import dev.prismindex.index.IndexDiagnostics;
import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.index.IndexWriter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent, incremental code index for one repository: one Lucene index under the index home
 * (default {@code <repo>/.prism-index/}), opened from disk, never rebuilt per process.
 *
 * <p>It is both the seam's {@link RepositoryIndexBackend} ({@code indexed_literal} from the n-gram
 * postings; {@code semantic} is not available until an embedding model exists, so
 * {@link #capabilities()} says {@code semantic=false}) and the {@link CodeSearch} port (lexical
 * BM25; semantic and hybrid fail with {@link SemanticSearchUnavailableException}).
 *
 * <p>Writes ({@link #refresh}, {@link #update}, {@link #remove}) are serialised within the process and
 * guarded by Lucene's {@code write.lock} across processes; each run ends in at most one commit.
 * Searches are concurrent and always see the last commit. Thread-safe.
 */
public final class HybridIndex implements RepositoryIndexBackend, CodeSearch, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HybridIndex.class);
  /** Seam snippets are cut to this many UTF-16 units (the seam's hard snippet cap is 16 KiB). */
  private static final int MAX_SEAM_SNIPPET_CHARS = 4096;

  private final HybridIndexOptions options;
  private final IndexStore store;
  private final CodeAnalyzer analyzer = new CodeAnalyzer();
  private final Chunker chunker = new Chunker();
  private final FileRules rules;
  private final LexicalSearcher lexical;
  private final LiteralSearcher literal;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicInteger running = new AtomicInteger();
  private volatile boolean failed;
  private volatile long verifiedAtMs;
  private volatile boolean closed;

  private HybridIndex(HybridIndexOptions options, IndexStore store) {
    this.options = options;
    this.store = store;
    this.rules = new FileRules(options.include(), options.exclude(), options.indexSecrets());
    this.lexical = new LexicalSearcher(options.root(), analyzer, options.maxFileBytes());
    this.literal = new LiteralSearcher(options.root(), options.maxFileBytes());
  }

  /**
   * Opens the index home, creating it (with a {@code .gitignore} holding {@code *}) when missing.
   * Nothing is indexed: call {@link #refresh} to build or update.
   *
   * @throws IncompatibleIndexException when the index was written with another format or analyzer
   *     version
   * @throws CorruptIndexException when the index files are damaged
   * @throws IOException when the home cannot be created or read
   */
  public static HybridIndex open(HybridIndexOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    if (!Files.isDirectory(options.root())) {
      throw new NoSuchFileException(options.root().toString(), null,
          "repository root is not a directory");
    }
    return new HybridIndex(options, IndexStore.open(options.home()));
  }

  /** The options this index was opened with. */
  public HybridIndexOptions options() {
    return options;
  }

  // ---------------------------------------------------------------------------------------------
  // Indexing

  /**
   * Walks the repository and brings the index up to date in one commit (none when nothing changed).
   *
   * @throws IndexLockedException when another process is writing the index
   * @throws IOException when the walk or the index write fails (the previous commit stays intact)
   */
  public IndexRunStats refresh(RefreshOptions refresh) throws IOException {
    Objects.requireNonNull(refresh, "refresh");
    long started = System.nanoTime();
    return write(writer -> {
      WalkResult walk = walker().walk();
      Map<String, FileEntry> before = refresh.fullRebuild() ? Map.of() : store.loadManifest();
      if (refresh.fullRebuild()) {
        writer.deleteAll();
      }
      Indexer indexer = newIndexer(writer, before);
      indexer.countSkips(walk.skipped());
      indexer.runWalk(walk.paths(), refresh.verify(), options.threads());
      String revision = walk.gitHead() != null ? walk.gitHead() : manifestDigest(indexer.manifest());
      boolean force = refresh.fullRebuild();
      int seen = walk.paths().size() + walk.skipped().values().stream().mapToInt(i -> i).sum();
      return new Outcome(indexer, revision, force, seen, started);
    });
  }

  /**
   * Estimates, from a walk and stat calls only, how many files changed since the last commit. Files
   * the index does not have are sniffed (first 8 KiB) so binary files are not reported as added;
   * files skipped for other content reasons (minified) may be reported as added.
   */
  public Staleness staleness() throws IOException {
    long started = System.nanoTime();
    WalkResult walk = walker().walk();
    Map<String, FileEntry> manifest = store.loadManifest();
    int added = 0;
    int modified = 0;
    int unchanged = 0;
    Set<String> seen = new HashSet<>();
    for (String path : walk.paths()) {
      Path file = options.root().resolve(path);
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (IOException e) {
        continue;
      }
      if (!a.isRegularFile() || a.size() > options.maxFileBytes()) {
        continue;
      }
      FileEntry e = manifest.get(path);
      if (e == null) {
        if (!sniffBinary(file)) {
          added++;
        }
        continue;
      }
      seen.add(path);
      if (e.statMatches(a.size(), a.lastModifiedTime().to(TimeUnit.NANOSECONDS))) {
        unchanged++;
      } else {
        modified++;
      }
    }
    int deleted = 0;
    for (String path : manifest.keySet()) {
      if (!seen.contains(path)) {
        deleted++;
      }
    }
    return new Staleness(added, modified, deleted, unchanged,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  private static boolean sniffBinary(Path file) {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] head = in.readNBytes(FileReader.BINARY_SNIFF_BYTES);
      return FileReader.isBinary(head, head.length);
    } catch (IOException e) {
      return true;
    }
  }

  private RepoWalker walker() {
    return new RepoWalker(options.root(), options.home(), rules);
  }

  private Indexer newIndexer(IndexWriter writer, Map<String, FileEntry> before) {
    return new Indexer(options.root(), writer, chunker, rules, options.maxFileBytes(),
        options.clock(), before);
  }

  private record Outcome(Indexer indexer, String revision, boolean force, int filesSeen,
      long startedNanos) {}

  @FunctionalInterface
  private interface WriteJob {
    Outcome run(IndexWriter writer) throws IOException;
  }

  private IndexRunStats write(WriteJob job) throws IOException {
    ensureOpen();
    writeLock.lock();
    running.incrementAndGet();
    try {
      IndexWriter writer = store.openWriter(analyzer);
      try {
        Outcome outcome = job.run(writer);
        Indexer.Counters c = outcome.indexer().counters();
        Map<String, String> previous = store.commitData();
        boolean commit = outcome.force() || c.wroteDocuments() || !store.hasCommit()
            || !outcome.revision().equals(previous.get(Schema.META_REVISION));
        long now = options.clock().millis();
        if (commit) {
          writer.setLiveCommitData(metadata(outcome, now).entrySet(), true);
          writer.commit();
          writer.close();
          store.refreshSearcher();
        } else {
          writer.rollback();
        }
        failed = false;
        verifiedAtMs = now;
        return new IndexRunStats(outcome.filesSeen(), c.hashed(), c.added(), c.changed(),
            c.deleted(), c.unchanged(), c.skipped(), c.chunksWritten(), 0, 0, commit,
            commit ? outcome.revision() : previous.get(Schema.META_REVISION),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - outcome.startedNanos()));
      } catch (IOException | RuntimeException | Error e) {
        failed = true;
        try {
          writer.rollback();
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
    } finally {
      running.decrementAndGet();
      writeLock.unlock();
    }
  }

  private static Map<String, String> metadata(Outcome outcome, long now) {
    Map<String, FileEntry> manifest = outcome.indexer().manifest();
    long chunks = 0;
    for (FileEntry e : manifest.values()) {
      chunks += e.chunks();
    }
    Map<String, String> data = new HashMap<>();
    data.put(Schema.META_FORMAT, Schema.FORMAT_VERSION);
    data.put(Schema.META_ANALYZER, CodeAnalyzer.VERSION);
    data.put(Schema.META_EMBEDDER_ID, "");
    data.put(Schema.META_EMBEDDER_DIM, "");
    data.put(Schema.META_REVISION, outcome.revision());
    data.put(Schema.META_UPDATED_AT, Long.toString(now));
    data.put(Schema.META_FILES, Integer.toString(manifest.size()));
    data.put(Schema.META_CHUNKS, Long.toString(chunks));
    return data;
  }

  /** {@code manifest:} plus BLAKE3 over the sorted {@code path NUL hash LF} lines. */
  static String manifestDigest(Map<String, FileEntry> manifest) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, FileEntry> e : new TreeMap<>(manifest).entrySet()) {
      sb.append(e.getKey()).append('\0').append(e.getValue().hash()).append('\n');
    }
    return "manifest:" + Hashing.blake3(sb.toString());
  }

  // ---------------------------------------------------------------------------------------------
  // Status

  /**
   * What the last commit records.
   *
   * @throws IOException when the index cannot be read
   */
  public EngineStatus engineStatus() throws IOException {
    ensureOpen();
    Map<String, String> data = store.commitData();
    String updated = data.get(Schema.META_UPDATED_AT);
    String dim = data.getOrDefault(Schema.META_EMBEDDER_DIM, "");
    String embedder = data.getOrDefault(Schema.META_EMBEDDER_ID, "");
    return new EngineStatus(options.home(), store.hasCommit(),
        parseLong(data.get(Schema.META_FILES)), parseLong(data.get(Schema.META_CHUNKS)),
        data.get(Schema.META_REVISION),
        updated == null ? null : Instant.ofEpochMilli(Long.parseLong(updated)),
        store.sizeOnDisk(), data.get(Schema.META_FORMAT), data.get(Schema.META_ANALYZER),
        embedder.isEmpty() ? null : embedder, dim.isEmpty() ? 0 : Integer.parseInt(dim));
  }

  /** The manifest of the last commit (for tests and diagnostics). */
  Map<String, FileEntry> manifest() throws IOException {
    return store.loadManifest();
  }

  private static long parseLong(@Nullable String s) {
    return s == null || s.isEmpty() ? 0 : Long.parseLong(s);
  }

  // ---------------------------------------------------------------------------------------------
  // CodeSearch

  /**
   * {@inheritDoc}
   *
   * <p>Lexical only in this version; hits come from the last commit and are checked against the
   * working tree before they are returned (see {@link LexicalSearcher}).
   */
  @Override
  public List<Hit> search(String query, SearchOpts opts) throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    ensureOpen();
    if (opts.mode() != RetrievalMode.LEXICAL) {
      throw new SemanticSearchUnavailableException();
    }
    return store.withSearcher(
        s -> lexical.search(s, query, opts.limit(), opts.pathScope()), List.of());
  }

  /**
   * Exact literal matches with the literal scanner's semantics (every matching line, path order).
   * Used by the seam (first match per file) and by tests comparing with the scanner.
   */
  public LiteralResult literalSearch(String query, boolean caseSensitive, @Nullable String scope,
      int maxMatches, boolean onePerFile, AbortSignal signal) throws IOException {
    ensureOpen();
    String s = SearchOpts.normaliseScope(scope);
    return store.withSearcher(
        searcher -> literal.search(searcher, query, caseSensitive, s, maxMatches, onePerFile,
            signal),
        new LiteralResult(List.of(), false));
  }

  // ---------------------------------------------------------------------------------------------
  // RepositoryIndexBackend

  @Override
  public IndexCapabilities capabilities() {
    return IndexCapabilities.LITERAL_ONLY;
  }

  /**
   * Re-indexes exactly the listed paths (a vanished or now-skipped path is deleted) and records the
   * request's source revision, in one commit.
   */
  @Override
  public void update(IndexUpdateRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    String revision = request.sourceRevision();
    if (revision == null || revision.isEmpty()) {
      throw new IllegalArgumentException("sourceRevision is required");
    }
    List<String> upserts = new ArrayList<>();
    List<String> deletes = new ArrayList<>();
    for (IndexFileChange change : request.changes() == null ? List.<IndexFileChange>of()
        : request.changes()) {
      if (change == null || change.path() == null || change.kind() == null) {
        throw new IllegalArgumentException("invalid change");
      }
      String path = checkPath(change.path());
      if (change.kind() == IndexFileChangeKind.DELETE) {
        deletes.add(path);
      } else {
        if (change.kind() == IndexFileChangeKind.RENAME && change.oldPath() != null) {
          deletes.add(checkPath(change.oldPath()));
        }
        upserts.add(path);
      }
    }
    long started = System.nanoTime();
    write(writer -> {
      Indexer indexer = newIndexer(writer, store.loadManifest());
      indexer.runPaths(insideRoot(upserts, deletes), deletes, options.threads());
      return new Outcome(indexer, revision, false, upserts.size(), started);
    });
  }

  /** Drops the paths; commits only when something was removed. */
  @Override
  public void remove(IndexRemoveRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    List<String> paths = new ArrayList<>();
    for (String p : request.paths() == null ? List.<String>of() : request.paths()) {
      if (p == null) {
        throw new IllegalArgumentException("invalid path");
      }
      paths.add(checkPath(p));
    }
    if (paths.isEmpty()) {
      return;
    }
    long started = System.nanoTime();
    write(writer -> {
      Indexer indexer = newIndexer(writer, store.loadManifest());
      indexer.runPaths(List.of(), paths, options.threads());
      String revision = store.commitData().get(Schema.META_REVISION);
      return new Outcome(indexer, revision == null ? manifestDigest(indexer.manifest()) : revision,
          false, 0, started);
    });
  }

  /** Paths whose real location is inside the root; others are treated as deleted. */
  private List<String> insideRoot(List<String> upserts, List<String> deletes) {
    List<String> out = new ArrayList<>();
    Path realRoot;
    try {
      realRoot = options.root().toRealPath();
    } catch (IOException e) {
      return List.of();
    }
    for (String p : upserts) {
      Path file = options.root().resolve(p);
      Path parent = file.getParent();
      try {
        if (parent != null && parent.toRealPath().startsWith(realRoot)
            && !file.startsWith(options.home())) {
          out.add(p);
          continue;
        }
      } catch (IOException e) {
        // missing parent: the file is gone
      }
      deletes.add(p);
    }
    return out;
  }

  private static String checkPath(String path) {
    String p = path;
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    if (p.isEmpty() || p.startsWith("/") || p.contains("\\") || p.equals("..")
        || p.startsWith("../") || p.contains("/../") || p.endsWith("/..") || p.indexOf('\0') >= 0
        || p.equals(".")) {
      throw new IllegalArgumentException("path must be repository-relative: " + path);
    }
    return p;
  }

  /**
   * {@code indexed_literal}: one hit per file (its first matching line; score 1.0, or 0.5 for a
   * path-only match), files in path order, {@code truncated} when a further file matches.
   * {@code semantic}: {@link SemanticSearchUnavailableException}.
   */
  @Override
  public IndexQueryResult search(IndexQuery query) throws IOException {
    Objects.requireNonNull(query, "query");
    if (query.mode() == SearchMode.SEMANTIC) {
      throw new SemanticSearchUnavailableException();
    }
    if (query.mode() != SearchMode.INDEXED_LITERAL) {
      throw new IllegalArgumentException("unsupported index mode: " + query.mode().wireName());
    }
    LiteralResult r = literalSearch(query.query(), query.caseSensitive(), query.scope(),
        query.maxResults(), true, query.signal());
    List<IndexSearchHit> hits = new ArrayList<>(r.matches().size());
    for (LiteralMatch m : r.matches()) {
      String snippet = m.text().length() > MAX_SEAM_SNIPPET_CHARS
          ? m.text().substring(0, MAX_SEAM_SNIPPET_CHARS) : m.text();
      hits.add(new IndexSearchHit(m.path(), m.pathOnly() ? 0.5 : 1.0, snippet, m.line(), m.line(),
          m.column()));
    }
    return new IndexQueryResult(hits, r.truncated());
  }

  /**
   * EMPTY before the first commit, BUILDING while a write runs, FAILED after a failed write until
   * the next success, else READY. {@code updatedAt} is the later of the last commit's time and the
   * last run in this process that found nothing to change (the index was verified current then).
   */
  @Override
  public IndexStatus status() throws IOException {
    ensureOpen();
    Map<String, String> data = store.commitData();
    String revision = data.get(Schema.META_REVISION);
    String updated = data.get(Schema.META_UPDATED_AT);
    Long commitMs = updated == null ? null : Long.parseLong(updated);
    Long updatedAt = commitMs == null ? null : Math.max(commitMs, verifiedAtMs);
    IndexDiagnostics diagnostics = new IndexDiagnostics(parseLong(data.get(Schema.META_FILES)),
        store.sizeOnDisk(), commitMs);
    IndexState state;
    if (running.get() > 0) {
      state = IndexState.BUILDING;
    } else if (failed) {
      state = IndexState.FAILED;
    } else if (!store.hasCommit()) {
      state = IndexState.EMPTY;
    } else {
      state = IndexState.READY;
    }
    return new IndexStatus(state, revision, updatedAt, diagnostics);
  }

  @Override
  public void dispose() throws IOException {
    close();
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("index is closed");
    }
  }

  /** Closes the searcher, the directory and the parsers. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    writeLock.lock();
    try {
      closed = true;
      chunker.close();
      store.close();
    } finally {
      writeLock.unlock();
    }
    LOG.debug("closed index at {}", options.home());
  }
}
