package dev.prismindex.engine.internal.seam;

import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
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
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The seam ({@code RepositoryIndexBackend}) of an index, whatever its store: capabilities and
 * status from the store's record and health; update, remove and search by {@link SeamRequests}
 * over its runs and query planner.
 */
public final class SeamAdapter {

  private final EngineContext ctx;
  private final Runs runs;
  private final SeamTarget target;

  public SeamAdapter(EngineContext ctx, Runs runs, QueryPlanner planner) {
    this.ctx = ctx;
    this.runs = runs;
    this.target = new SeamTarget() {
      @Override
      public void update(List<String> upserts, List<String> deletes, String revision)
          throws IOException {
        runs.update(upserts, deletes, revision);
      }

      @Override
      public void remove(List<String> paths) throws IOException {
        runs.remove(paths);
      }

      @Override
      public SearchResult search(String query, SearchOpts opts) throws IOException {
        return planner.search(query, opts);
      }

      @Override
      public LiteralAnswer literal(String query, boolean caseSensitive, @Nullable String scope,
          int maxMatches, boolean onePerFile, AbortSignal signal, SearchMode mode,
          Snippet snippet) throws IOException {
        return planner.literal(query, caseSensitive, scope, maxMatches, onePerFile, signal, mode,
            snippet);
      }

      @Override
      public SearchMode seamSemanticMode() {
        return ctx.options().seamSemanticMode();
      }
    };
  }

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

  /** See {@code HybridIndex.update}. */
  public void update(IndexUpdateRequest request) throws IOException {
    SeamRequests.update(target, request);
  }

  /** See {@code HybridIndex.remove}. */
  public void remove(IndexRemoveRequest request) throws IOException {
    SeamRequests.remove(target, request);
  }

  /** See {@code HybridIndex.search(IndexQuery)}. */
  public IndexQueryResult search(IndexQuery query) throws IOException {
    ctx.store().checkUndamaged(); // what status() reports FAILED serves nothing
    return SeamRequests.search(target, query);
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
}
