package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.search.LuceneChunkIndex;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.engine.internal.semantic.EmbeddingRun;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.RelativePath;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.IndexSearcher;
import org.jspecify.annotations.Nullable;

/**
 * Plans and runs one search over the last commit: the ranked modes by {@link RankedSearch} over
 * the commit's {@link LuceneChunkIndex}, the literal modes from the n-gram postings, verified
 * against the working tree.
 */
public final class QueryPlanner {

  /**
   * A literal answer.
   *
   * @param hits the matches as hits, path and line order
   * @param truncated whether a further match exists
   * @param notSearched files not searched, by reason
   */
  public record LiteralAnswer(List<Hit> hits, boolean truncated,
      Map<String, Integer> notSearched) {}

  private final EngineContext ctx;
  private final RankedSearch ranked;
  private final LiteralSearcher literal;

  public QueryPlanner(EngineContext ctx) {
    this.ctx = ctx;
    this.ranked = new RankedSearch(ctx.options().root(), ctx.analyzer(),
        ctx.options().maxFileBytes());
    this.literal = new LiteralSearcher(ctx.options().root(), ctx.options().maxFileBytes());
  }

  /**
   * See {@code HybridIndex.searchResult}. One searcher and one read of its commit's metadata per
   * search: the coverage, the model check and the skip counts all come from the commit that answers.
   */
  public SearchResult search(String query, SearchOpts opts) throws IOException {
    IndexStore store = ctx.store();
    store.checkUndamaged(); // known to be damaged (by any run): no answer until it is repaired
    SearchMode mode = opts.mode();
    boolean literalMode = SearchOpts.literal(mode);
    LiteralPattern pattern = literalMode ? LiteralSearcher.compile(query, opts.caseSensitive())
        : null;
    if (mode.needsSemantic() && !store.hasCommit()) {
      ctx.semantic().require(Map.of()); // no index yet: still say when no model can serve
    }
    FileMatcher files = FileMatcher.of(opts.files());
    return store.withSearcher(s -> {
      Map<String, String> d = CommitMeta.of(s);
      if (literalMode) {
        LiteralResult r = literal.search(s, pattern, query, files, opts.limit(), false,
            opts.contextBefore(), opts.contextAfter(), AbortSignal.create())
            .plusNotSearched(CommitMeta.parseSkipped(d.get(Schema.META_SKIPPED)));
        return new SearchResult(LiteralHits.hits(r, query, mode, Snippet.CENTRED,
            opts.wantsContext()), mode, CommitMeta.coverage(d), r.notSearched(), r.truncated());
      }
      float[] q = mode == SearchMode.LEXICAL ? null
          : embedQuery(ctx.semantic().require(d), query);
      RankedSearch.Ranking ranking = ranked.hits(new LuceneChunkIndex(s), query, q, opts);
      return new SearchResult(ranking.hits(), mode, CommitMeta.coverage(d), Map.of(),
          ranking.truncated());
    }, new SearchResult(List.of(), mode, CommitMeta.coverage(Map.of())));
  }

  /** The query's unit vector, or null for a blank query (which matches nothing). */
  public static float @Nullable [] embedQuery(Embedder model, String query) {
    if (query.isBlank()) {
      return null;
    }
    try {
      return EmbeddingRun.unit(model.embedQuery(query), model.dimension());
    } catch (EmbeddingException e) {
      throw SemanticAvailability.modelFailed(e);
    }
  }

  /**
   * Exact literal matches with the literal scanner's semantics (every matching line, or the first
   * of each file, path order). {@link LiteralResult#notSearched()} holds the files the commit's
   * walking run left out of the index (binary, oversize, secret, glob, not regular, unreadable:
   * for the whole repository, whatever the scope) plus candidates unreadable as text now.
   *
   * @throws IllegalArgumentException for a query over the literal pattern limit (before any read)
   */
  public LiteralResult literalMatches(String query, boolean caseSensitive, @Nullable String scope,
      int maxMatches, boolean onePerFile, AbortSignal signal) throws IOException {
    LiteralPattern pattern = LiteralSearcher.compile(query, caseSensitive);
    String sc = RelativePath.normaliseScope(scope);
    return ctx.store().withSearcher(s -> literalMatches(s, CommitMeta.of(s), pattern, query, sc,
        maxMatches, onePerFile, signal), new LiteralResult(List.of(), false));
  }

  private LiteralResult literalMatches(IndexSearcher s, Map<String, String> d,
      @Nullable LiteralPattern pattern, String query, @Nullable String scope, int maxMatches,
      boolean onePerFile, AbortSignal signal) throws IOException {
    return literal.search(s, pattern, query, scope, maxMatches, onePerFile, signal)
        .plusNotSearched(CommitMeta.parseSkipped(d.get(Schema.META_SKIPPED)));
  }

  /** {@link #literalMatches} as hits of {@code mode}, their snippets cut by {@code snippet}. */
  public LiteralAnswer literal(String query, boolean caseSensitive, @Nullable String scope,
      int maxMatches, boolean onePerFile, AbortSignal signal, SearchMode mode, Snippet snippet)
      throws IOException {
    LiteralResult r = literalMatches(query, caseSensitive, scope, maxMatches, onePerFile, signal);
    return answer(r, query, mode, snippet);
  }

  /** The hits of literal matches {@code r}, their snippets cut by {@code snippet}. */
  public static LiteralAnswer answer(LiteralResult r, String query, SearchMode mode,
      Snippet snippet) {
    return new LiteralAnswer(LiteralHits.hits(r, query, mode, snippet, false), r.truncated(),
        r.notSearched());
  }

}
