package dev.prismindex.engine.internal.seam;

import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.query.QueryPlanner;
import dev.prismindex.engine.internal.query.QueryPlanner.LiteralAnswer;
import dev.prismindex.engine.internal.run.IndexJobs;
import dev.prismindex.engine.internal.run.WriteRun;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Schema;
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
 * The seam ({@code RepositoryIndexBackend}) of the local index: capabilities and status from its
 * commit; update, remove and search by {@link SeamRequests} over its runs and query planner.
 */
public final class SeamAdapter {

  private final EngineContext ctx;
  private final WriteRun writes;
  private final SeamTarget target;

  public SeamAdapter(EngineContext ctx, WriteRun writes, IndexJobs jobs, QueryPlanner planner) {
    this.ctx = ctx;
    this.writes = writes;
    this.target = new SeamTarget() {
      @Override
      public void update(List<String> upserts, List<String> deletes, String revision)
          throws IOException {
        jobs.update(upserts, deletes, revision);
      }

      @Override
      public void remove(List<String> paths) throws IOException {
        jobs.remove(paths);
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
    if (writes.closed()) {
      return IndexCapabilities.LITERAL_ONLY;
    }
    try {
      return ctx.semantic().check(ctx.store().commitData()).available()
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

  /** See {@code HybridIndex.status}. */
  public IndexStatus status() throws IOException {
    IndexStore store = ctx.store();
    Map<String, String> data = store.commitData();
    String revision = data.get(Schema.META_REVISION);
    String updated = data.get(Schema.META_UPDATED_AT);
    Long commitMs = updated == null ? null : Long.parseLong(updated);
    Long updatedAt = commitMs == null ? null : Math.max(commitMs, writes.verifiedAtMs());
    IndexDiagnostics diagnostics = new IndexDiagnostics(
        CommitMeta.parseLong(data.get(Schema.META_FILES)), store.sizeOnDisk(), commitMs);
    IndexState state;
    if (writes.failed() || store.damaged()) {
      state = IndexState.FAILED;
    } else if (store.hasCommit()) {
      // A run in progress never hides the last commit: it stays servable until the next one.
      state = IndexState.READY;
    } else if (writes.running()) {
      state = IndexState.BUILDING;
    } else {
      state = IndexState.EMPTY;
    }
    return new IndexStatus(state, revision, updatedAt, diagnostics);
  }
}
