package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.CodeSearch;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.FileFilter;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.SemanticCoverage;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.query.LiteralHits;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.query.QueryPlanner;
import dev.prismindex.engine.internal.query.QueryPlanner.LiteralAnswer;
import dev.prismindex.engine.internal.query.RankedSearch;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.engine.internal.seam.SeamRequests;
import dev.prismindex.engine.internal.seam.SeamTarget;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Indexer;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import dev.prismindex.engine.internal.walk.WalkResult;
import dev.prismindex.index.IndexCapabilities;
import dev.prismindex.index.IndexDiagnostics;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.RepositoryIndexBackend;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One repository's index in an OpenSearch 2.x cluster, with the local engine's answers: the same
 * indexing pipeline (walk and file rules, BLAKE3 manifest, chunking, embeddings from the same
 * model) feeding a cluster index instead of Lucene, and the same ranking, fusion, identifier
 * guard and per-hit freshness check (the engine's code, over the cluster's BM25 and k-NN
 * candidates). Literal modes take their candidates from the local index's n-grams (keywords) and verify them
 * against the working tree, so they equal a full scan.
 *
 * <p>Each repository root has its own cluster index ({@link OpenSearchOptions#indexName()}), so a
 * query never sees another repository's documents. The manifest lives in that index (FILE
 * documents, the commit record of each file); a run that did not finish leaves the index {@code
 * stale} and the next run completes it. {@link #status()} is {@code ready} only when the cluster
 * reports the index green or yellow and its FILE documents match the last run's record.
 * Thread-safe; runs are serialised per instance.
 */
public final class OpenSearchIndex implements RepositoryIndexBackend, CodeSearch, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OpenSearchIndex.class);

  private final OpenSearchOptions options;
  private final Cluster cluster;
  private final ClusterRecord record;
  private final String index;
  private final CodeAnalyzer analyzer = new CodeAnalyzer();
  private final Chunker chunker = new Chunker();
  private final FileRules rules;
  private final SemanticAvailability semantic;
  private final RankedSearch ranked;
  private final LiteralSearcher literal;
  private final ReentrantLock runs = new ReentrantLock();
  private final SeamTarget seam = new Seam();
  private volatile boolean running;
  private volatile boolean failed;
  private volatile boolean closed;

  private OpenSearchIndex(OpenSearchOptions options, Cluster cluster,
      @Nullable Embedder embedder) {
    this.options = options;
    this.cluster = cluster;
    this.record = new ClusterRecord(cluster, options.indexName(), options.local().clock());
    this.index = options.indexName();
    HybridIndexOptions local = options.local();
    this.rules = FileRules.of(local);
    this.semantic = new SemanticAvailability(local.semantic(), embedder);
    this.ranked = new RankedSearch(local.root(), analyzer, local.maxFileBytes());
    this.literal = new LiteralSearcher(local.root(), local.maxFileBytes());
  }

  /**
   * Connects to the cluster and checks the repository's index, if it exists, was written by this
   * format and analyzer. Nothing is indexed: call {@link #refresh}.
   *
   * @throws ClusterUnavailableException when the cluster cannot be reached
   * @throws IncompatibleIndexException when the index has another format or analyzer
   * @throws IOException when the repository root is missing or the cluster refuses a request
   */
  public static OpenSearchIndex open(OpenSearchOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    HybridIndexOptions local = options.local();
    if (!Files.isDirectory(local.root())) {
      throw new NoSuchFileException(local.root().toString(), null,
          "repository root is not a directory");
    }
    Embedder embedder = null;
    if (local.semantic()) {
      embedder = local.embedder() != null ? local.embedder()
          : EmbedderProvider.findDefault().map(EmbedderProvider::create).orElse(null);
    }
    Cluster cluster = Cluster.connect(options);
    try {
      cluster.call("GET", "/", Map.of(), null);
      OpenSearchIndex idx = new OpenSearchIndex(options, cluster, embedder);
      idx.record.checkLayout();
      return idx;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** The options this index was opened with. */
  public OpenSearchOptions options() {
    return options;
  }

  /** Deletes the repository's cluster index (nothing else); true when there was one. */
  public boolean deleteIndex() throws IOException {
    runs.lock();
    try {
      Cluster.Reply r = cluster.send("DELETE", "/" + index, Map.of(), null);
      record.forgetLayout();
      if (r.status() == 404) {
        return false;
      }
      if (!r.ok()) {
        throw ClusterRequestException.of("deleting " + index, r);
      }
      return true;
    } finally {
      runs.unlock();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Runs

  /**
   * Walks the repository and brings the cluster index up to date (creating it with the model's
   * dimension pinned in its mapping), then refreshes it so every change is searchable. {@code
   * full} deletes the index first. A run after an interrupted one re-hashes every file and removes
   * the chunks the interrupted run may have left behind.
   *
   * @throws ClusterUnavailableException when the cluster cannot be reached or refuses documents
   *     (what it acknowledged stays; running again completes the index)
   * @throws IncompatibleIndexException when the index pins another embedding model
   */
  public OpenSearchRunStats refresh(boolean full) throws IOException {
    ensureOpen();
    runs.lock();
    try {
      if (full) {
        cluster.send("DELETE", "/" + index, Map.of(), null);
        record.forgetLayout();
      }
      long start = System.nanoTime();
      WalkResult walk = new RepoWalker(options.local().root(), options.local().home(), rules)
          .walk();
      Run run = run(null, walk.gitHead(), (indexer, resumed) -> {
        indexer.countSkips(walk.skipped());
        indexer.runWalk(walk.files(), resumed, options.local().threads());
      });
      Indexer.Counters c = run.counters();
      int skipped = c.skipped().values().stream().mapToInt(Integer::intValue).sum();
      return new OpenSearchRunStats(c.added(), c.changed(), c.deleted(), c.unchanged(), skipped,
          c.chunksWritten(), run.resumed(), (System.nanoTime() - start) / 1_000_000);
    } finally {
      runs.unlock();
    }
  }

  private interface RunBody {
    /** Runs the indexer; {@code resumed}: after an interrupted run (hash every file). */
    void accept(Indexer indexer, boolean resumed) throws IOException;
  }

  private record Run(Indexer.Counters counters, boolean resumed) {}

  /** One run: record "writing", index, send, sweep when resuming, refresh, record "ready". */
  private Run run(@Nullable String revision, @Nullable String gitHead, RunBody body)
      throws IOException {
    running = true;
    try {
      Embedder model = record.ensure(options, semantic);
      JsonNode meta = record.read();
      boolean resumed = meta != null
          && IndexLayout.STATE_WRITING.equals(meta.path(IndexLayout.STATE).asText());
      Map<String, FileEntry> before = ClusterManifest.files(cluster, index);
      record.write(meta, IndexLayout.STATE_WRITING, null, before, Map.of());
      ClusterSink sink = new ClusterSink(cluster, index, analyzer, model, before,
          options.bulkBytes(), options.retries());
      Indexer indexer = new Indexer(options.local().root(), sink, chunker, rules,
          options.local().maxFileBytes(), options.local().clock(), before);
      indexer.rememberSkipped(ClusterManifest.skipped(cluster, index));
      body.accept(indexer, resumed);
      sink.finish();
      if (resumed) {
        ClusterManifest.sweepOrphans(cluster, index, indexer.manifest());
      }
      cluster.call("POST", "/" + index + "/_refresh", Map.of(), null);
      String rev = revision != null ? revision
          : gitHead != null ? gitHead : meta == null ? null : meta.path("revision").asText(null);
      record.write(meta, IndexLayout.STATE_READY, rev, indexer.manifest(),
          indexer.counters().skipped());
      failed = false;
      LOG.debug("cluster index {} updated: {}", index, indexer.counters());
      return new Run(indexer.counters(), resumed);
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    } finally {
      running = false;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // CodeSearch

  /** {@inheritDoc} Equivalent to {@code searchResult(query, opts).hits()}. */
  @Override
  public List<dev.prismindex.engine.Hit> search(String query, SearchOpts opts) throws IOException {
    return searchResult(query, opts).hits();
  }

  /**
   * {@inheritDoc}
   *
   * <p>As {@code HybridIndex.searchResult}: the same modes, scores, guard and freshness rules,
   * over the cluster's candidates. An index that does not exist yet answers no hits.
   */
  @Override
  public SearchResult searchResult(String query, SearchOpts opts) throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    ensureOpen();
    if (opts.mode() == null) {
      // The automatic choice, as HybridIndex makes it (EngineStatus.defaultMode).
      Map<String, String> meta = record.layout() == null ? Map.of() : record.layout();
      return searchResult(query, opts.withMode(EngineStatus.defaultMode(
          semantic.check(meta).state(), meta.get(Schema.META_EMBEDDER_ID))));
    }
    SearchMode mode = opts.mode();
    if (SearchOpts.literal(mode)) {
      LiteralPattern pattern = LiteralSearcher.compile(query, opts.caseSensitive());
      LiteralResult r = literalMatches(pattern, query, FileMatcher.of(opts.files()),
          opts.limit(), false, opts.contextBefore(), opts.contextAfter(), AbortSignal.create());
      return new SearchResult(LiteralHits.hits(r, query, mode, Snippet.CENTRED,
          opts.wantsContext()), mode, new SemanticCoverage(0, 0), r.notSearched(),
          r.truncated());
    }
    Map<String, String> layout = record.layout();
    float[] q = null;
    if (mode != SearchMode.LEXICAL) {
      q = QueryPlanner.embedQuery(semantic.require(layout == null ? Map.of() : layout), query);
    }
    if (layout == null) {
      return new SearchResult(List.of(), mode, new SemanticCoverage(0, 0));
    }
    RankedSearch.Ranking ranking = ranked.hits(new ClusterChunkIndex(cluster, index), query, q,
        opts);
    return new SearchResult(ranking.hits(), mode, new SemanticCoverage(0, 0), Map.of(),
        ranking.truncated());
  }

  /**
   * Literal matches: the FILE documents in the filter's scopes whose n-grams may hold the query,
   * those the filter selects verified against the working tree.
   */
  private LiteralResult literalMatches(@Nullable LiteralPattern pattern, String query,
      FileMatcher files, int maxMatches, boolean onePerFile, int before, int after,
      AbortSignal signal) throws IOException {
    if (pattern == null) {
      return new LiteralResult(List.of(), false);
    }
    List<String> candidates = record.layout() == null ? List.of()
        : ClusterManifest.literalCandidates(cluster, index, query, pattern.caseSensitive(), files);
    JsonNode meta = record.read();
    return literal.verify(candidates, pattern, maxMatches, onePerFile, before, after, signal)
        .plusNotSearched(CommitMeta.parseSkipped(meta == null ? null
            : meta.path("skipped").asText(null)));
  }

  // ---------------------------------------------------------------------------------------------
  // RepositoryIndexBackend

  /**
   * {@code indexed_literal} and {@code lexical} always; {@code semantic} and {@code hybrid} when the
   * model is present and matches the one the index pins (or the index does not exist yet).
   */
  @Override
  public IndexCapabilities capabilities() {
    if (closed) {
      return IndexCapabilities.LITERAL_ONLY;
    }
    try {
      Map<String, String> meta = record.layout();
      boolean vectors = meta == null || !meta.getOrDefault(Schema.META_EMBEDDER_ID, "").isEmpty();
      return vectors && semantic.check(meta == null ? Map.of() : meta).available()
          ? IndexCapabilities.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)
          : IndexCapabilities.of(SearchMode.LEXICAL);
    } catch (IOException e) {
      return IndexCapabilities.LITERAL_ONLY;
    }
  }

  /** Re-indexes exactly the listed paths and records the request's revision. */
  @Override
  public void update(IndexUpdateRequest request) throws IOException {
    ensureOpen();
    SeamRequests.update(seam, request);
  }

  @Override
  public void remove(IndexRemoveRequest request) throws IOException {
    ensureOpen();
    SeamRequests.remove(seam, request);
  }

  /** As {@code HybridIndex.search(IndexQuery)}. */
  @Override
  public IndexQueryResult search(IndexQuery query) throws IOException {
    ensureOpen();
    return SeamRequests.search(seam, query);
  }

  /**
   * EMPTY before the first finished run; BUILDING while it runs; READY when the cluster reports
   * the index green or yellow and its FILE documents are the ones the last run recorded; STALE
   * after an interrupted run or when the documents do not match; FAILED after a failed run in
   * this process or when the index is red.
   */
  @Override
  public IndexStatus status() throws IOException {
    ensureOpen();
    JsonNode meta = record.layout() == null ? null : record.read();
    if (meta == null) {
      return new IndexStatus(running ? IndexState.BUILDING : IndexState.EMPTY, null, null, null);
    }
    String health = record.health();
    long files = meta.path("files").asLong(-1);
    Long updated = meta.has("updated_ms") ? meta.path("updated_ms").asLong() : null;
    IndexDiagnostics diagnostics = new IndexDiagnostics(Math.max(0, files), record.storeBytes(),
        updated);
    String revision = meta.path("revision").asText(null);
    IndexState state;
    if (failed || health.equals("red")) {
      state = IndexState.FAILED;
    } else if (updated == null) {
      state = running ? IndexState.BUILDING : IndexState.STALE;
    } else if (running) {
      state = IndexState.READY;
    } else if (!IndexLayout.STATE_READY.equals(meta.path(IndexLayout.STATE).asText())
        || record.countFiles() != files) {
      state = IndexState.STALE;
    } else {
      state = IndexState.READY;
    }
    return new IndexStatus(state, revision, updated, diagnostics);
  }

  @Override
  public void dispose() throws IOException {
    close();
  }

  /** Closes the client and the parsers (the cluster index stays). Idempotent. */
  @Override
  public void close() throws IOException {
    runs.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      chunker.close();
      cluster.close();
    } finally {
      runs.unlock();
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("index is closed");
    }
  }

  /** The seam's runs and searches over this index. */
  private final class Seam implements SeamTarget {
    @Override
    public void update(List<String> upserts, List<String> deletes, String revision)
        throws IOException {
      runs.lock();
      try {
        run(revision, null, (indexer, resumed) -> indexer.runPaths(upserts, deletes,
            options.local().threads()));
      } finally {
        runs.unlock();
      }
    }

    @Override
    public void remove(List<String> paths) throws IOException {
      runs.lock();
      try {
        run(null, null, (indexer, resumed) -> indexer.runPaths(List.of(), paths, 1));
      } finally {
        runs.unlock();
      }
    }

    @Override
    public SearchResult search(String query, SearchOpts opts) throws IOException {
      return searchResult(query, opts);
    }

    @Override
    public LiteralAnswer literal(String query, boolean caseSensitive, @Nullable String scope,
        int maxMatches, boolean onePerFile, AbortSignal signal, SearchMode mode,
        Snippet snippet) throws IOException {
      return QueryPlanner.answer(literalMatches(LiteralSearcher.compile(query, caseSensitive),
          query, FileMatcher.of(FileFilter.scope(scope)), maxMatches, onePerFile, 0, 0, signal),
          query, mode, snippet);
    }

    @Override
    public SearchMode seamSemanticMode() {
      return options.local().seamSemanticMode();
    }
  }
}
