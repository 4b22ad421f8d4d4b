package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.FileSource;
import dev.prismindex.engine.internal.search.HitLocator;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.StoreFields;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.engine.spi.VectorQuery;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.jspecify.annotations.Nullable;

/**
 * The ranked modes (LEXICAL, SEMANTIC, HYBRID) over any {@link StoreReader}: candidates from each
 * engine, filtered by the search's files → path prior → fusion and identifier guard (HYBRID) →
 * one hit per definition ({@link #definition}), located in the working tree at its declaration
 * ({@link HitLocator}) → up to the limit. One implementation
 * for every store, so a store that returns the same candidates gives the same hits.
 */
public final class RankedSearch {

  /**
   * Receives the learned ranker's candidates and features of each HYBRID search on this thread
   * while set (the benchmarks' feature collection, through the engine's test probes); null: none.
   */
  public static final ThreadLocal<Consumer<List<RankFeatures.Row>>> TRACE = new ThreadLocal<>();

  /** The candidate depth of every ranked search with a limit up to it (see {@link #depth}). */
  static final int MIN_DEPTH = 50;

  /**
   * The hits of a ranked search.
   *
   * @param truncated whether a further candidate yields a hit (the limit cut the answer)
   * @param firstFactor the definition prior's factor ({@link DefinitionMatch}) of the first hit of
   *     a hybrid answer to a sentence; 1 otherwise
   */
  public record Ranking(List<Hit> hits, boolean truncated, double firstFactor) {

    /** A ranking whose first hit has no definition factor (1). */
    public Ranking(List<Hit> hits, boolean truncated) {
      this(hits, truncated, 1.0);
    }
  }

  private final CodeAnalyzer analyzer;
  private final LexicalSearcher lexical;

  public RankedSearch(CodeAnalyzer analyzer) {
    this.analyzer = analyzer;
    this.lexical = new LexicalSearcher(analyzer);
  }

  /**
   * The hits of a ranked {@code opts.mode()} over {@code index}, their files read through {@code
   * sources}: one repository's working tree ({@link FileSource#of}), or, for a reader that joins
   * several repositories (a workspace, an organisation), each chunk's file in its own repository.
   *
   * @param unitQuery the query's unit vector (SEMANTIC and HYBRID; null for a blank query)
   */
  public Ranking hits(StoreReader index, FileSource sources, String query,
      float @Nullable [] unitQuery, SearchOpts opts) throws IOException {
    FileMatcher files = FileMatcher.of(opts.files());
    Query fileQuery = files.query(index);
    return switch (opts.mode()) {
      case LEXICAL -> lexicalHits(index, sources, query, opts, fileQuery);
      case SEMANTIC -> semanticHits(index, sources, unitQuery, query, opts, files, fileQuery);
      case HYBRID -> hybridHits(index, sources, query, unitQuery, opts, files, fileQuery);
      default -> throw new IllegalArgumentException("not a ranked mode: " + opts.mode());
    };
  }

  /**
   * How many candidates each engine contributes: {@value #MIN_DEPTH}, or the limit when larger. It
   * does not grow with smaller limits, so the first k hits of any limit up to {@value #MIN_DEPTH}
   * are the hits of limit k (the cut rule of the fusion depends on the depth).
   */
  static int depth(int limit) {
    return Math.max(MIN_DEPTH, limit);
  }

  /**
   * Vectors a k-NN search takes per chunk wanted (plus 10), before rescoring them by the float
   * query: several vectors may resolve to no live chunk (the embedding cache), and the byte codes'
   * order differs a little from the float one. The property is for measuring.
   */
  static final int OVER_FETCH = Integer.getInteger("prism.semantic.overFetch", 4);

  /** The k-NN request of a search: {@code depth} chunks from {@code OVER_FETCH x depth + 10}. */
  private static VectorQuery vectorQuery(float[] unit, int depth, FileMatcher files,
      @Nullable Query fileQuery) {
    return new VectorQuery(unit, depth, depth * OVER_FETCH + 10, fileQuery, files::test);
  }

  private HitLocator locator(StoreReader index, FileSource files, SearchMode mode,
      String query, SearchOpts opts) {
    return new HitLocator(files, analyzer, index, mode, query, opts.contextBefore(), opts.contextAfter());
  }

  /**
   * The path-prior weight of a search: {@link SearchOpts#auxiliaryWeight()}, or 1 when the query's
   * words ask for auxiliary files or every scope lies in them ({@link PathPrior#appliesToScopes}).
   */
  private static double prior(Set<String> words, SearchOpts opts) {
    return opts.auxiliaryWeight() < 1 && PathPrior.appliesToScopes(words, opts.files().scopes())
        ? opts.auxiliaryWeight() : 1;
  }

  /**
   * The definition a chunk belongs to: its main symbol (path, header line, name), so the pieces of
   * one definition (its doc comment and header, the windows of a long body, the lines of a type
   * between its members) give one hit, the best-ranked; a chunk without a symbol is its own.
   */
  static String definition(ChunkDoc c) {
    return c.symbolLines().length == 0 ? c.chunkId()
        : c.path() + '#' + c.symbolLines()[0] + ':' + c.symbolNames().get(0);
  }

  /**
   * {@link #definition(ChunkDoc)} within the chunk's repository: in a workspace or an
   * organisation, two repositories' definitions at the same path and line are two hits.
   */
  private static String definition(FileSource sources, int doc, ChunkDoc c) {
    String repo = sources.repo(doc);
    return repo == null ? definition(c) : repo + '\0' + definition(c);
  }

  /** A candidate with its score after the path prior ({@link PathPrior#apply}). */
  private record Prioritised(Candidate ranked, double score) {}

  /**
   * {@code ranked} with the path prior applied to each engine score, re-ordered by the result
   * (stable: equal scores keep the engine's order); the ranks stay the engine's own.
   */
  private static List<Prioritised> prior(List<Candidate> ranked, HitLocator locator, double weight)
      throws IOException {
    List<Prioritised> out = new ArrayList<>(ranked.size());
    for (Candidate r : ranked) {
      out.add(new Prioritised(r, weight >= 1 ? r.score()
          : PathPrior.apply(r.score(), locator.chunk(r.chunk()).path(), weight)));
    }
    out.sort(Comparator.comparingDouble(Prioritised::score).reversed());
    return out;
  }

  private Ranking lexicalHits(StoreReader index, FileSource sources, String query,
      SearchOpts opts, @Nullable Query fileQuery) throws IOException {
    Set<String> terms = lexical.terms(query);
    if (terms.isEmpty()) {
      return new Ranking(List.of(), false);
    }
    HitLocator locator = locator(index, sources, SearchMode.LEXICAL, query, opts);
    List<Candidate> candidates = lexical.candidates(index, query, depth(opts.limit()), fileQuery);
    index.prefetchFiles(candidates.stream().map(Candidate::chunk).toList());
    double[] best = {Double.NaN};
    return firstHits(prior(candidates, locator, prior(terms, opts)), p -> p.ranked().chunk(),
        sources, locator, opts.limit(), (p, chunk) -> {
          Candidate r = p.ranked();
          Hit hit = locator.locate(r.chunk(), terms, 0.0,
              new EngineScore(r.rank(), r.score()), null);
          if (hit == null) {
            return null;
          }
          if (Double.isNaN(best[0])) {
            best[0] = p.score();
          }
          return hit.withScore(
              best[0] > 0 ? Math.min(1.0, Math.max(0.0, p.score() / best[0])) : 0.0);
        });
  }

  private Ranking semanticHits(StoreReader index, FileSource sources,
      float @Nullable [] q, String query, SearchOpts opts, FileMatcher files,
      @Nullable Query fileQuery) throws IOException {
    if (q == null) {
      return new Ranking(List.of(), false);
    }
    HitLocator locator = locator(index, sources, SearchMode.SEMANTIC, query, opts);
    List<Candidate> candidates =
        index.nearest(vectorQuery(q, depth(opts.limit()), files, fileQuery));
    index.prefetchFiles(candidates.stream().map(Candidate::chunk).toList());
    return firstHits(prior(candidates, locator, prior(lexical.terms(query), opts)),
        p -> p.ranked().chunk(), sources, locator, opts.limit(), (p, chunk) -> {
          Candidate r = p.ranked();
          return locator.locate(r.chunk(), Set.of(), Math.min(1.0, Math.max(0.0, p.score())),
              null, new EngineScore(r.rank(), r.score()));
        });
  }

  private Ranking hybridHits(StoreReader index, FileSource sources, String query,
      float @Nullable [] q, SearchOpts opts, FileMatcher files, @Nullable Query fileQuery)
      throws IOException {
    int depth = depth(opts.limit());
    Set<String> terms = lexical.terms(query);
    LexicalQuery lexQuery = terms.isEmpty() ? null : lexical.request(query, depth, fileQuery);
    VectorQuery vecQuery = q == null ? null : vectorQuery(q, depth, files, fileQuery);
    // Every request the search may make, announced at once: a remote store sends them together.
    List<LexicalQuery> announced = new ArrayList<>(2);
    if (lexQuery != null) {
      announced.add(lexQuery);
    }
    LexicalQuery definitions = IdentifierGuard.definitions(query,
        terms.isEmpty() ? null : lexical.query(query), fileQuery);
    if (definitions != null) {
      announced.add(definitions);
    }
    index.prefetchRanked(announced, vecQuery);
    List<Candidate> lex = lexQuery == null ? List.of() : index.lexical(lexQuery);
    List<Candidate> sem = vecQuery == null ? List.of() : index.nearest(vecQuery);
    HitLocator locator = locator(index, sources, SearchMode.HYBRID, query, opts);
    double prior = prior(terms, opts);
    List<HybridFuser.Fused> fused = new ArrayList<>();
    Map<Integer, Double> factors = Map.of();
    HandStack hand = handStack(index, sources, query, lex, sem, opts.fusion().ranker()
        ? Fusion.rrf() : opts.fusion(), depth, locator, prior);
    if (opts.fusion().ranker()) {
      // The features read every candidate's file (its kind, the definition prior's shares): its
      // manifest entry read with the others', in the hand-set stack's order, not one at a time.
      index.prefetchFiles(hand.order().stream().map(HybridFuser.Fused::doc).toList());
      List<RankFeatures.Row> rows = RankFeatures.of(query, terms, lex, sem, depth, locator::chunk,
          analyzer, prior, new RankFeatures.Hand(hand.order(), hand.promoted(), hand.coherence(),
              locator::freshLines));
      Consumer<List<RankFeatures.Row>> trace = TRACE.get();
      if (trace != null) {
        trace.accept(rows);
      }
      fused.addAll(LearnedRanker.shipped().rank(rows));
    } else {
      fused = hand.order();
      factors = hand.factors();
    }
    index.prefetchFiles(fused.stream().map(HybridFuser.Fused::doc).toList());
    HybridFuser.Fused pinned = IdentifierGuard.pinned(query, index,
        terms.isEmpty() ? null : lexical.query(query), fileQuery, lex,
        terms, locator, fused, prior);
    double pinnedScore = 0;
    if (pinned != null) {
      pinnedScore = fused.isEmpty() ? 1.0 : Math.max(pinned.score(), fused.get(0).score());
      fused.remove(pinned);
      fused.add(0, pinned);
    }
    double pinnedHitScore = pinnedScore;
    int[] firstDoc = {-1};
    Ranking ranking = firstHits(fused, HybridFuser.Fused::doc, sources, locator, opts.limit(),
        (f, chunk) -> {
      Set<String> hitTerms = f.lexical() != null || f == pinned ? terms : Set.of();
      EngineScore lexicalScore = f.lexical() == null ? null
          : new EngineScore(f.lexical().rank(), f.lexical().score());
      EngineScore semanticScore = f.semantic() == null ? null
          : new EngineScore(f.semantic().rank(), f.semantic().score());
      Hit hit = f == pinned
          ? locator.locate(f.doc(), hitTerms, IdentifierGuard.definitionLine(chunk, query),
              pinnedHitScore, lexicalScore, semanticScore)
          : locator.locate(f.doc(), hitTerms, f.score(), lexicalScore, semanticScore);
      if (hit != null && firstDoc[0] < 0) {
        firstDoc[0] = f.doc();
      }
      return hit;
    });
    return new Ranking(ranking.hits(), ranking.truncated(),
        factors.getOrDefault(firstDoc[0], 1.0));
  }

  /**
   * The hand-set stack's order of one HYBRID search (the default): the fusion of both engines'
   * candidates with the path prior, then for a sentence file coherence, the definition prior and
   * the in-file promotion (docs/engine.md, "Ranking").
   *
   * @param order the candidates in their final order
   * @param factors the definition prior's factor of each of its first candidates by chunk
   * @param promoted the chunk the in-file promotion put first, -1 when none
   * @param coherence the file coherence factor of each candidate by chunk (empty: none applied)
   */
  private record HandStack(List<HybridFuser.Fused> order, Map<Integer, Double> factors,
      int promoted, Map<Integer, Double> coherence) {}

  private HandStack handStack(StoreReader index, FileSource sources, String query,
      List<Candidate> lex, List<Candidate> sem, Fusion fusion, int depth, HitLocator locator,
      double prior) throws IOException {
    List<HybridFuser.Fused> fused = new ArrayList<>();
    for (HybridFuser.Fused f : HybridFuser.fuse(lex, sem, fusion, depth)) {
      fused.add(prior >= 1 ? f : new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(),
          PathPrior.apply(f.score(), locator.chunk(f.doc()).path(), prior)));
    }
    fused.sort(HybridFuser.ORDER);
    // File coherence, then the definition prior; the first hit of the definition prior's order
    // without coherence keeps the first place.
    int plainFirst = -1;
    Map<Integer, Double> coherence = Map.of();
    DefinitionMatch.Factors memo = new DefinitionMatch.Factors();
    if (FileCoherence.WEIGHT > 0 && LexicalSearcher.isProse(query)) {
      List<HybridFuser.Fused> plain = new ArrayList<>(fused);
      DefinitionMatch.apply(plain, query, locator::chunk, locator::freshLines, sources::repo,
          analyzer, memo);
      plainFirst = plain.isEmpty() ? -1 : plain.get(0).doc();
      coherence = FileCoherence.apply(fused, query, locator::chunk, sources::repo,
          FileCoherence.WEIGHT, FileCoherence.DEPTH);
    }
    Map<Integer, Double> factors = DefinitionMatch.apply(fused, query, locator::chunk,
        locator::freshLines, sources::repo, analyzer, memo);
    FileCoherence.putFirst(fused, plainFirst);
    int promoted = InFilePromotion.promote(fused, query, locator::chunk, locator::freshLines,
        sources::repo, (first, n) -> {
          LexicalQuery inFile = lexical.request(query, n,
              new TermQuery(new Term(StoreFields.PATH, first.path())));
          return inFile == null ? List.of()
              : index.lexical(inFile).stream().map(Candidate::chunk).toList();
        }, analyzer, memo);
    return new HandStack(fused, factors, promoted, coherence);
  }

  /** Locates the hit of one candidate in its chunk; null when the candidate yields none. */
  private interface Locate<T> {
    @Nullable Hit hit(T candidate, ChunkDoc chunk) throws IOException;
  }

  /**
   * The hits of {@code candidates} in their order, up to {@code limit}: one per definition (the
   * first candidate of each, {@link #definition(FileSource, int, ChunkDoc)}), a candidate that
   * yields no hit skipped; truncated when a further candidate yields a hit.
   */
  private static <T> Ranking firstHits(List<T> candidates, ToIntFunction<T> doc,
      FileSource sources, HitLocator locator, int limit, Locate<T> locate)
      throws IOException {
    List<Hit> hits = new ArrayList<>();
    Set<String> definitions = new HashSet<>();
    for (T candidate : candidates) {
      int d = doc.applyAsInt(candidate);
      ChunkDoc chunk = locator.chunk(d);
      if (!definitions.add(definition(sources, d, chunk))) {
        continue;
      }
      Hit hit = locate.hit(candidate, chunk);
      if (hit == null) {
        continue;
      }
      if (hits.size() == limit) {
        return new Ranking(hits, true);
      }
      hits.add(hit);
    }
    return new Ranking(hits, false);
  }
}
