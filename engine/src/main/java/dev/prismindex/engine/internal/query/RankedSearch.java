package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.search.ChunkDoc;
import dev.prismindex.engine.internal.search.ChunkIndex;
import dev.prismindex.engine.internal.search.HitLocator;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The ranked modes (LEXICAL, SEMANTIC, HYBRID) over any {@link ChunkIndex}: candidates from each
 * engine → path prior → fusion and identifier guard (HYBRID) → every hit located in the working
 * tree ({@link HitLocator}) → up to the limit. One implementation for every store, so a store
 * that returns the same candidates gives the same hits.
 */
public final class RankedSearch {

  /** The candidate depth of every ranked search with a limit up to it (see {@link #depth}). */
  static final int MIN_DEPTH = 50;

  private final Path root;
  private final CodeAnalyzer analyzer;
  private final long maxFileBytes;
  private final LexicalSearcher lexical;

  public RankedSearch(Path root, CodeAnalyzer analyzer, long maxFileBytes) {
    this.root = root;
    this.analyzer = analyzer;
    this.maxFileBytes = maxFileBytes;
    this.lexical = new LexicalSearcher(analyzer);
  }

  /** The lexical query of {@code text} (null when it has no terms), for a store to run. */
  public LexicalSearcher lexical() {
    return lexical;
  }

  /**
   * The hits of a ranked {@code opts.mode()}.
   *
   * @param unitQuery the query's unit vector (SEMANTIC and HYBRID; null for a blank query)
   */
  public List<Hit> hits(ChunkIndex index, String query, float @Nullable [] unitQuery,
      SearchOpts opts) throws IOException {
    return switch (opts.mode()) {
      case LEXICAL -> lexicalHits(index, query, opts);
      case SEMANTIC -> semanticHits(index, unitQuery, query, opts);
      case HYBRID -> hybridHits(index, query, unitQuery, opts);
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

  private HitLocator locator(ChunkIndex index, SearchMode mode, String query) {
    return new HitLocator(root, analyzer, maxFileBytes, index, mode, query);
  }

  /**
   * The path-prior weight of a search: {@link SearchOpts#auxiliaryWeight()}, or 1 when the query's
   * words ask for auxiliary files or the scope lies in them ({@link PathPrior#applies}).
   */
  private static double prior(Set<String> words, SearchOpts opts) {
    return opts.auxiliaryWeight() < 1 && PathPrior.applies(words, opts.pathScope())
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

  private List<Hit> lexicalHits(ChunkIndex index, String query, SearchOpts opts)
      throws IOException {
    Set<String> terms = lexical.terms(query);
    if (terms.isEmpty()) {
      return List.of();
    }
    HitLocator locator = locator(index, SearchMode.LEXICAL, query);
    List<Hit> hits = new ArrayList<>();
    double best = 0;
    for (Prioritised p : prior(lexical.candidates(index, query, depth(opts.limit()),
        opts.pathScope()), locator, prior(terms, opts))) {
      if (hits.size() == opts.limit()) {
        break;
      }
      Ranked r = p.ranked();
      Hit hit = locator.locate(locator.chunk(r.doc()), terms, 0.0,
          new EngineScore(r.rank(), r.score()), null);
      if (hit == null) {
        continue;
      }
      if (hits.isEmpty()) {
        best = p.score();
      }
      hits.add(hit.withScore(best > 0 ? Math.min(1.0, Math.max(0.0, p.score() / best)) : 0.0));
    }
    return hits;
  }

  private List<Hit> semanticHits(ChunkIndex index, float @Nullable [] q, String query,
      SearchOpts opts) throws IOException {
    if (q == null) {
      return List.of();
    }
    HitLocator locator = locator(index, SearchMode.SEMANTIC, query);
    List<Hit> hits = new ArrayList<>();
    for (Prioritised p : prior(index.nearest(q, depth(opts.limit()), opts.pathScope()), locator,
        prior(lexical.terms(query), opts))) {
      if (hits.size() == opts.limit()) {
        break;
      }
      Ranked r = p.ranked();
      Hit hit = locator.locate(locator.chunk(r.doc()), Set.of(),
          Math.min(1.0, Math.max(0.0, p.score())),
          null, new EngineScore(r.rank(), r.score()));
      if (hit != null) {
        hits.add(hit);
      }
    }
    return hits;
  }

  private List<Hit> hybridHits(ChunkIndex index, String query, float @Nullable [] q,
      SearchOpts opts) throws IOException {
    int depth = depth(opts.limit());
    Set<String> terms = lexical.terms(query);
    List<Ranked> lex = terms.isEmpty() ? List.of()
        : lexical.candidates(index, query, depth, opts.pathScope());
    List<Ranked> sem = q == null ? List.of() : index.nearest(q, depth, opts.pathScope());
    HitLocator locator = locator(index, SearchMode.HYBRID, query);
    double prior = prior(terms, opts);
    List<HybridFuser.Fused> fused = new ArrayList<>();
    for (HybridFuser.Fused f : HybridFuser.fuse(lex, sem, opts.fusion(), depth)) {
      fused.add(prior >= 1 ? f : new HybridFuser.Fused(f.doc(), f.lexical(), f.semantic(),
          PathPrior.apply(f.score(), locator.chunk(f.doc()).path(), prior)));
    }
    fused.sort(HybridFuser.ORDER);
    HybridFuser.Fused pinned = IdentifierGuard.pinned(query, index,
        terms.isEmpty() ? null : lexical.query(query, opts.pathScope()), opts.pathScope(), lex,
        terms, locator, fused, prior);
    double pinnedScore = 0;
    if (pinned != null) {
      pinnedScore = fused.isEmpty() ? 1.0 : Math.max(pinned.score(), fused.get(0).score());
      fused.remove(pinned);
      fused.add(0, pinned);
    }
    List<Hit> hits = new ArrayList<>();
    for (HybridFuser.Fused f : fused) {
      if (hits.size() == opts.limit()) {
        break;
      }
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
      if (hit != null) {
        hits.add(hit);
      }
    }
    return hits;
  }
}
