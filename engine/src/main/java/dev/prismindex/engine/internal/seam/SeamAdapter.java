package dev.prismindex.engine.internal.seam;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.StoreAccess;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.query.QueryPlanner.LiteralAnswer;
import dev.prismindex.engine.internal.query.QueryPlanner;
import dev.prismindex.engine.internal.run.Runs;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.StoreHealth;
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
import dev.prismindex.repository.RelativePath;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The seam ({@code RepositoryIndexBackend}) of an index, whatever its store: capabilities and
 * status from the store's record and health; update, remove and search checked and turned into
 * its runs and its query planner's searches, the answers into the contract's types. {@link
 * IndexSearchHit} is built from {@link Hit} here only ({@link #toSeam}).
 *
 * @param ctx the index's context: its store and options
 * @param runs the index's runs (update, remove) and their state
 * @param planner the index's searches
 */
public record SeamAdapter(EngineContext ctx, Runs runs, QueryPlanner planner) {

  /** Seam snippets are cut to this many UTF-16 units (the seam's hard snippet cap is 16 KiB). */
  private static final int MAX_SEAM_SNIPPET_CHARS = 4096;

  /** See {@code HybridIndex.capabilities}. */
  public IndexCapabilities capabilities() {
    if (runs.closed()) {
      return IndexCapabilities.LITERAL_ONLY;
    }
    try {
      CommitRecord record = ctx.store().record();
      Map<String, String> data = record == null ? Map.of() : record.values();
      return ctx.store().holdsVectors(record) && ctx.semantic().check(data).available()
          ? IndexCapabilities.of(SearchMode.LEXICAL, SearchMode.SEMANTIC, SearchMode.HYBRID)
          : IndexCapabilities.of(SearchMode.LEXICAL);
    } catch (IOException e) {
      return IndexCapabilities.LITERAL_ONLY;
    }
  }

  /**
   * See {@code HybridIndex.status}: FAILED after a failed run, or when the store reports damage;
   * EMPTY (BUILDING while a run writes) before the store has an index; STALE when no write ever
   * committed, or the store's documents may not be the ones its record describes (unless a run is
   * writing: searches are then served from the last commit); READY otherwise.
   */
  public IndexStatus status() throws IOException {
    StoreAccess store = ctx.store();
    CommitRecord record = store.record();
    if (record == null) {
      IndexState state = runs.failed() ? IndexState.FAILED
          : runs.running() ? IndexState.BUILDING : IndexState.EMPTY;
      return new IndexStatus(state, null, null, new IndexDiagnostics(0, 0, null));
    }
    StoreHealth health = store.health();
    Long commitMs = record.updatedAtMs();
    Long updatedAt = commitMs == null ? null : Math.max(commitMs, runs.verifiedAtMs());
    IndexDiagnostics diagnostics = new IndexDiagnostics(record.count(CommitRecord.FILES),
        health.sizeBytes(), commitMs);
    IndexState state;
    if (runs.failed() || health.condition() == StoreHealth.Condition.DAMAGED) {
      state = IndexState.FAILED;
    } else if (!record.committed()) {
      state = runs.running() ? IndexState.BUILDING : IndexState.STALE;
    } else if (runs.running()) {
      // A run in progress never hides the last commit: it stays servable until the next one.
      state = IndexState.READY;
    } else if (health.condition() == StoreHealth.Condition.STALE) {
      state = IndexState.STALE;
    } else {
      state = IndexState.READY;
    }
    return new IndexStatus(state, record.get(CommitRecord.REVISION), updatedAt, diagnostics);
  }

  /** See {@code HybridIndex.update}. */
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
      String path = RelativePath.normalise(change.path());
      if (change.kind() == IndexFileChangeKind.DELETE) {
        deletes.add(path);
      } else {
        if (change.kind() == IndexFileChangeKind.RENAME && change.oldPath() != null) {
          deletes.add(RelativePath.normalise(change.oldPath()));
        }
        upserts.add(path);
      }
    }
    runs.update(upserts, deletes, revision);
  }

  /** See {@code HybridIndex.remove}. */
  public void remove(IndexRemoveRequest request) throws IOException {
    Objects.requireNonNull(request, "request");
    List<String> paths = new ArrayList<>();
    for (String p : request.paths() == null ? List.<String>of() : request.paths()) {
      if (p == null) {
        throw new IllegalArgumentException("invalid path");
      }
      paths.add(RelativePath.normalise(p));
    }
    if (!paths.isEmpty()) {
      runs.remove(paths);
    }
  }

  /** See {@code HybridIndex.search(IndexQuery)}. */
  public IndexQueryResult search(IndexQuery query) throws IOException {
    ctx.store().checkUndamaged(); // what status() reports FAILED serves nothing
    Objects.requireNonNull(query, "query");
    if (query.mode() == SearchMode.SEMANTIC) {
      return ranked(query, ctx.options().seamSemanticMode());
    }
    if (query.mode() == SearchMode.LEXICAL || query.mode() == SearchMode.HYBRID) {
      return ranked(query, query.mode());
    }
    if (query.mode() != SearchMode.INDEXED_LITERAL) {
      throw new IllegalArgumentException("unsupported index mode: " + query.mode().wireName());
    }
    LiteralAnswer a = planner.literal(query.query(), query.caseSensitive(), query.scope(),
        query.maxResults(), true, query.signal(), SearchMode.INDEXED_LITERAL, Snippet.TEXT);
    List<IndexSearchHit> hits = new ArrayList<>(a.hits().size());
    for (Hit h : a.hits()) {
      hits.add(toSeam(h));
    }
    return new IndexQueryResult(hits, a.truncated());
  }

  /** A ranked answer in {@code mode}, one hit per file (its best), {@code truncated} at the cap. */
  private IndexQueryResult ranked(IndexQuery query, SearchMode mode) throws IOException {
    int cap = RepositoryLimits.HARD_MAX_SEARCH_MATCHES;
    int max = Math.min(query.maxResults(), cap);
    SearchOpts opts = new SearchOpts(Math.min(cap, max * 3), mode,
        query.scope());
    List<IndexSearchHit> hits = new ArrayList<>();
    Set<String> files = new HashSet<>();
    for (Hit h : planner.search(query.query(), opts).hits()) {
      if (hits.size() == max) {
        break;
      }
      if (files.add(h.path())) {
        hits.add(toSeam(h));
      }
    }
    return new IndexQueryResult(hits, hits.size() == max);
  }

  /** The contract's hit for an engine hit: the one place this conversion happens. */
  static IndexSearchHit toSeam(Hit h) {
    String text = h.snippet();
    String snippet = text.length() > MAX_SEAM_SNIPPET_CHARS
        ? text.substring(0, MAX_SEAM_SNIPPET_CHARS) : text;
    return new IndexSearchHit(h.path(), h.score(), snippet, h.line(), h.endLine(), h.column());
  }
}
