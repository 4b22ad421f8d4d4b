package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbeddingException;
import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.search.ChunkDoc;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.HitLocator;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.engine.internal.semantic.EmbeddingRun;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.semantic.SemanticSearcher;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.RelativePath;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.jspecify.annotations.Nullable;

/**
 * Plans and runs one search over the last commit, in stages: candidates (lexical BM25, k-NN, or
 * the n-gram postings for literal modes) → fuse (HYBRID) → identifier guard (HYBRID) → locate
 * every hit in the working tree ({@link HitLocator}) → collect up to the limit.
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
  private final LexicalSearcher lexical;
  private final LiteralSearcher literal;
  private final SemanticSearcher semanticSearcher = new SemanticSearcher();

  /** The candidate depth of every ranked search with a limit up to it (see {@link #depth}). */
  static final int MIN_DEPTH = 50;

  public QueryPlanner(EngineContext ctx) {
    this.ctx = ctx;
    this.lexical = new LexicalSearcher(ctx.analyzer());
    this.literal = new LiteralSearcher(ctx.options().root(), ctx.options().maxFileBytes());
  }

  /**
   * See {@code HybridIndex.searchResult}. One searcher and one read of its commit's metadata per
   * search: the coverage, the model check and the skip counts all come from the commit that answers.
   */
  public SearchResult search(String query, SearchOpts opts) throws IOException {
    IndexStore store = ctx.store();
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
      Query fileQuery = files.query(s);
      Ranking ranking;
      if (mode == SearchMode.LEXICAL) {
        ranking = lexicalHits(s, query, opts, fileQuery);
      } else {
        float[] q = embedQuery(ctx.semantic().require(d), query);
        ranking = mode == SearchMode.SEMANTIC ? semanticHits(s, q, query, opts, files, fileQuery)
            : hybridHits(s, query, q, opts, files, fileQuery);
      }
      return new SearchResult(ranking.hits(), mode, CommitMeta.coverage(d), Map.of(),
          ranking.truncated());
    }, new SearchResult(List.of(), mode, CommitMeta.coverage(Map.of())));
  }

  /**
   * The hits of a ranked search.
   *
   * @param truncated whether a further candidate yields a hit (the limit cut the answer)
   */
  private record Ranking(List<Hit> hits, boolean truncated) {}

  /** The query's unit vector, or null for a blank query (which matches nothing). */
  private static float @Nullable [] embedQuery(Embedder model, String query) {
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

  private static LiteralAnswer answer(LiteralResult r, String query, SearchMode mode,
      Snippet snippet) {
    return new LiteralAnswer(LiteralHits.hits(r, query, mode, snippet, false), r.truncated(),
        r.notSearched());
  }

  /**
   * How many candidates each engine contributes: {@value #MIN_DEPTH}, or the limit when larger. It
   * does not grow with smaller limits, so the first k hits of any limit up to {@value #MIN_DEPTH}
   * are the hits of limit k (the cut rule of the fusion depends on the depth).
   */
  static int depth(int limit) {
    return Math.max(MIN_DEPTH, limit);
  }

  private HitLocator locator(IndexSearcher s, SearchMode mode, String query, SearchOpts opts) {
    return new HitLocator(ctx.options().root(), ctx.analyzer(), ctx.options().maxFileBytes(), s,
        mode, query, opts.contextBefore(), opts.contextAfter());
  }

  /**
   * The path-prior weight of a search: {@link SearchOpts#auxiliaryWeight()}, or 1 when the query's
   * words ask for auxiliary files or every scope lies in them ({@link PathPrior#appliesToScopes}).
   */
  private static double prior(Set<String> words, SearchOpts opts) {
    return opts.auxiliaryWeight() < 1 && PathPrior.appliesToScopes(words, opts.files().scopes())
        ? opts.auxiliaryWeight() : 1;
  }

  /** A candidate with its score after the path prior ({@link PathPrior#apply}). */
  private record Prioritised(Ranked ranked, double score) {}

  /**
   * {@code ranked} with the path prior applied to each engine score, re-ordered by the result
   * (stable: equal scores keep the engine's order); the ranks stay the engine's own.
   */
  private static List<Prioritised> prior(List<Ranked> ranked, HitLocator locator, double weight)
      throws IOException {
    List<Prioritised> out = new ArrayList<>(ranked.size());
    for (Ranked r : ranked) {
      out.add(new Prioritised(r, weight >= 1 ? r.score()
          : PathPrior.apply(r.score(), locator.chunk(r.doc()).path(), weight)));
    }
    out.sort(Comparator.comparingDouble(Prioritised::score).reversed());
    return out;
  }

  private Ranking lexicalHits(IndexSearcher s, String query, SearchOpts opts,
      @Nullable Query fileQuery) throws IOException {
    Set<String> terms = lexical.terms(query);
    if (terms.isEmpty()) {
      return new Ranking(List.of(), false);
    }
    HitLocator locator = locator(s, SearchMode.LEXICAL, query, opts);
    List<Hit> hits = new ArrayList<>();
    double best = 0;
    for (Prioritised p : prior(lexical.candidates(s, query, depth(opts.limit()), fileQuery),
        locator, prior(terms, opts))) {
      Ranked r = p.ranked();
      Hit hit = locator.locate(locator.chunk(r.doc()), terms, 0.0,
          new EngineScore(r.rank(), r.score()), null);
      if (hit == null) {
        continue;
      }
      if (hits.size() == opts.limit()) {
        return new Ranking(hits, true);
      }
      if (hits.isEmpty()) {
        best = p.score();
      }
      hits.add(hit.withScore(best > 0 ? Math.min(1.0, Math.max(0.0, p.score() / best)) : 0.0));
    }
    return new Ranking(hits, false);
  }

  private Ranking semanticHits(IndexSearcher s, float @Nullable [] q, String query,
      SearchOpts opts, FileMatcher files, @Nullable Query fileQuery) throws IOException {
    if (q == null) {
      return new Ranking(List.of(), false);
    }
    HitLocator locator = locator(s, SearchMode.SEMANTIC, query, opts);
    List<Hit> hits = new ArrayList<>();
    for (Prioritised p : prior(semanticSearcher.candidates(s, q, depth(opts.limit()), files,
        fileQuery), locator, prior(lexical.terms(query), opts))) {
      Ranked r = p.ranked();
      Hit hit = locator.locate(locator.chunk(r.doc()), Set.of(),
          Math.min(1.0, Math.max(0.0, p.score())),
          null, new EngineScore(r.rank(), r.score()));
      if (hit == null) {
        continue;
      }
      if (hits.size() == opts.limit()) {
        return new Ranking(hits, true);
      }
      hits.add(hit);
    }
    return new Ranking(hits, false);
  }

  private Ranking hybridHits(IndexSearcher s, String query, float @Nullable [] q,
      SearchOpts opts, FileMatcher files, @Nullable Query fileQuery) throws IOException {
    int depth = depth(opts.limit());
    Set<String> terms = lexical.terms(query);
    List<Ranked> lex = terms.isEmpty() ? List.of()
        : lexical.candidates(s, query, depth, fileQuery);
    List<Ranked> sem = q == null ? List.of()
        : semanticSearcher.candidates(s, q, depth, files, fileQuery);
    HitLocator locator = locator(s, SearchMode.HYBRID, query, opts);
    double prior = prior(terms, opts);
    List<HybridFuser.Fused> fused = new ArrayList<>();
    for (HybridFuser.Fused f : HybridFuser.fuse(lex, sem, opts.fusion(), depth)) {
      fused.add(prior >= 1 ? f : new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(),
          PathPrior.apply(f.score(), locator.chunk(f.doc()).path(), prior)));
    }
    fused.sort(HybridFuser.ORDER);
    HybridFuser.Fused pinned = IdentifierGuard.pinned(query, s,
        terms.isEmpty() ? null : lexical.query(query, fileQuery), fileQuery, lex,
        terms, locator, fused, prior);
    double pinnedScore = 0;
    if (pinned != null) {
      pinnedScore = fused.isEmpty() ? 1.0 : Math.max(pinned.score(), fused.get(0).score());
      fused.remove(pinned);
      fused.add(0, pinned);
    }
    List<Hit> hits = new ArrayList<>();
    for (HybridFuser.Fused f : fused) {
      ChunkDoc chunk = locator.chunk(f.doc());
      Set<String> hitTerms = f.lexical() != null || f == pinned ? terms : Set.of();
      EngineScore lexicalScore = f.lexical() == null ? null
          : new EngineScore(f.lexical().rank(), f.lexical().score());
      EngineScore semanticScore = f.semantic() == null ? null
          : new EngineScore(f.semantic().rank(), f.semantic().score());
      Hit hit = f == pinned
          ? locator.locate(chunk, hitTerms, IdentifierGuard.definitionLine(chunk, query),
              pinnedScore, lexicalScore, semanticScore)
          : locator.locate(chunk, hitTerms, f.score(), lexicalScore, semanticScore);
      if (hit == null) {
        continue;
      }
      if (hits.size() == opts.limit()) {
        return new Ranking(hits, true);
      }
      hits.add(hit);
    }
    return new Ranking(hits, false);
  }
}
