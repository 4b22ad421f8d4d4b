package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.FileFilter;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.search.ExactSearch;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.FileSource;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.engine.internal.semantic.EmbeddingRun;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.RelativePath;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Plans and runs one search over the last commit of the index's store: the ranked modes by
 * {@link RankedSearch} over the commit's {@link StoreReader}, the literal modes from the store's
 * gram index ({@link StoreReader#files}), verified against the working tree.
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
  private final ExactSearch exact;

  public QueryPlanner(EngineContext ctx) {
    this.ctx = ctx;
    this.ranked = new RankedSearch(ctx.analyzer());
    this.literal = new LiteralSearcher(ctx.options().root(),
        ctx.options().exactMaxFileBytes());
    this.exact = new ExactSearch(literal);
  }

  /**
   * See {@code HybridIndex.searchResult}. One reader and one read of its commit's record per
   * search: the coverage, the model check and the skip counts all come from the commit that answers.
   */
  public SearchResult search(String query, SearchOpts opts) throws IOException {
    ctx.store().checkUndamaged(); // known to be damaged (by any run): no answer until repaired
    if (opts.mode() == null) {
      // The automatic choice, from the commit this search reads (as the command line chooses).
      Map<String, String> data = ctx.store().read(r -> r.commit().values(), Map.of());
      return search(query, opts.withMode(EngineStatus.defaultMode(
          ctx.semantic().check(data).state(), data.get(CommitRecord.EMBEDDER_ID))));
    }
    SearchMode mode = opts.mode();
    if (SearchOpts.exact(mode)) {
      List<Hit> hits = new ArrayList<>();
      SearchResult r = stream(query, opts, hits::add);
      return new SearchResult(hits, mode, r.coverage(), r.notSearched(), r.truncated(),
          r.everyFileRead());
    }
    SearchResult result = ctx.store().read(r -> {
      Map<String, String> d = r.commit().values();
      float[] q = mode == SearchMode.LEXICAL ? null
          : embedQuery(ctx.semantic().require(d), query);
      RankedSearch.Ranking ranking = ranked.hits(r,
          FileSource.of(ctx.options().root(), r,
              ctx.options().exactMaxFileBytes()), query, q, opts);
      return new SearchResult(ranking.hits(), mode, CommitMeta.coverage(d), Map.of(),
          ranking.truncated());
    }, null);
    if (result != null) {
      return result;
    }
    if (mode.needsSemantic()) {
      ctx.semantic().require(Map.of()); // no index yet: still say when no model can serve
    }
    return new SearchResult(List.of(), mode, CommitMeta.coverage(Map.of()));
  }

  /**
   * See {@code HybridIndex.stream}: the matches of an exact mode (LITERAL, INDEXED_LITERAL,
   * REGEX) handed to {@code sink} as each candidate file is verified, in path and line order; the
   * result has no hits.
   *
   * @throws IllegalArgumentException for a ranked mode, or a pattern that does not compile
   */
  public SearchResult stream(String query, SearchOpts opts, Consumer<Hit> sink)
      throws IOException {
    ctx.store().checkUndamaged(); // as search: no answer from an index known to be damaged
    SearchMode mode = opts.mode();
    if (!SearchOpts.exact(mode)) {
      throw new IllegalArgumentException("only the exact modes stream: "
          + (mode == null ? "automatic (hybrid or lexical)" : mode.wireName()));
    }
    Object pattern = ExactSearch.compile(mode, query, opts.caseSensitive(), opts.wholeWords());
    FileMatcher files = FileMatcher.of(opts.files());
    return ctx.store().read(r -> {
      Map<String, String> d = r.commit().values();
      int[] rank = {0};
      ExactSearch.Outcome o = exact.stream(r, pattern, query, files, opts.limit(),
          opts.maxPerFile(), opts.contextBefore(), opts.contextAfter(), AbortSignal.create(),
          m -> sink.accept(LiteralHits.hit(m, query, mode, Snippet.CENTRED, opts.wantsContext(),
              ++rank[0])));
      Map<String, Integer> notSearched = new TreeMap<>(o.notSearched());
      CommitMeta.parseSkipped(r.commit().get(CommitRecord.SKIPPED))
          .forEach((k, v) -> notSearched.merge(k, v, Integer::sum));
      return new SearchResult(List.of(), mode, CommitMeta.coverage(d), notSearched,
          o.truncated(), o.everyFileRead());
    }, new SearchResult(List.of(), mode, CommitMeta.coverage(Map.of())));
  }

  /** See {@code HybridIndex.notIndexed}. */
  public Map<String, Integer> notIndexed() throws IOException {
    return ctx.store().read(
        r -> CommitMeta.parseSkipped(r.commit().get(CommitRecord.SKIPPED)), Map.of());
  }

  /** The query's unit vector, or null for a blank query (which matches nothing). */
  public static float @Nullable [] embedQuery(Embedder model, String query)
      throws SemanticSearchUnavailableException {
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
    FileMatcher files = FileMatcher.of(FileFilter.scope(RelativePath.normaliseScope(scope)));
    return ctx.store().read(r -> literalMatches(r, pattern, query, files, maxMatches, onePerFile,
        0, 0, signal), new LiteralResult(List.of(), false));
  }

  /**
   * The matches of {@code pattern} among the files {@code files} selects: the store's candidates
   * for the query's plan, verified against the working tree; plus the commit's skip counts.
   */
  private LiteralResult literalMatches(StoreReader r, @Nullable LiteralPattern pattern,
      String query, FileMatcher files, int maxMatches, boolean onePerFile, int before, int after,
      AbortSignal signal) throws IOException {
    LiteralResult found = new LiteralResult(List.of(), false);
    if (pattern != null) {
      List<String> candidates = new ArrayList<>();
      for (String path : r.files(LiteralSearcher.plan(query, pattern.caseSensitive()),
          files.scopes())) {
        if (files.test(path)) {
          candidates.add(path);
        }
      }
      found = literal.verify(candidates, pattern, maxMatches, onePerFile, before, after, signal);
    }
    return found.plusNotSearched(
        CommitMeta.parseSkipped(r.commit().get(CommitRecord.SKIPPED)));
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
