package dev.prismindex.engine;

/**
 * How {@link dev.prismindex.repository.SearchMode#HYBRID} ranks the candidates of the lexical and
 * the semantic engine: the learned ranker ({@link #learned()}, the default: a trained model, linear
 * plus boosted shallow trees, over what the engine knows of each candidate, the hand-set stack's
 * order among it; see {@code docs/engine.md}, "The ranker"; it ranks every language of the
 * quality benchmark better than the hand-set stack), or weighted reciprocal rank fusion followed
 * by the hand-set stack ({@link #rrf()}, {@link #weighted}).
 *
 * <p>Reciprocal rank fusion: A chunk ranked {@code rL} by the lexical engine and {@code rS} by the semantic engine
 * scores {@code lexicalWeight / (k + rL) + semanticWeight / (k + rS)} (a term is 0 when that engine
 * did not return the chunk; HYBRID passes the rank just below the cut instead when that engine's
 * ranking was cut at the search depth, see {@code HybridFuser}), and the hit's score is that sum
 * divided by the maximum attainable one, {@code (lexicalWeight + semanticWeight) / (k + 1)}, so it
 * lies in [0, 1] and 1 means "ranked first by both engines".
 *
 * <p>{@link #rrf()} is RRF with k = 10 and both weights 1 (k = 10 ranked as well as or
 * better than k = 20 in each of the benchmark's five languages, issue 14); the customary k = 60
 * ({@code new Fusion(60, 1, 1)}) ranked worse on the retrieval-quality benchmark
 * (the quality run log, {@code docs/runs/README.md}). {@link #weighted} tilts the fusion towards one engine,
 * e.g. {@code weighted(2, 1)} for identifier-heavy workloads.
 *
 * @param k the rank constant (1..1000; larger flattens the rank differences)
 * @param lexicalWeight the weight of the lexical ranking (finite, >= 0)
 * @param semanticWeight the weight of the semantic ranking (finite, >= 0; not both 0)
 * @param ranker whether the learned ranker orders the candidates (then {@code k} and the weights
 *     are not used)
 */
public record Fusion(int k, double lexicalWeight, double semanticWeight, boolean ranker) {

  /** The rank constant of {@link #rrf()}. */
  public static final int DEFAULT_K = 10;

  private static final Fusion RRF = new Fusion(DEFAULT_K, 1, 1);
  private static final Fusion LEARNED = new Fusion(DEFAULT_K, 1, 1, true);

  /**
   * Validates the parameters.
   *
   * @throws IllegalArgumentException for k outside 1..1000, a negative or non-finite weight, or two
   *     zero weights
   */
  public Fusion {
    if (k < 1 || k > 1000) {
      throw new IllegalArgumentException("k must be between 1 and 1000: " + k);
    }
    if (!(lexicalWeight >= 0 && Double.isFinite(lexicalWeight))
        || !(semanticWeight >= 0 && Double.isFinite(semanticWeight))) {
      throw new IllegalArgumentException(
          "weights must be finite and >= 0: " + lexicalWeight + ", " + semanticWeight);
    }
    if (lexicalWeight + semanticWeight <= 0) {
      throw new IllegalArgumentException("at least one weight must be positive");
    }
  }

  /** Weighted reciprocal rank fusion (not the learned ranker). */
  public Fusion(int k, double lexicalWeight, double semanticWeight) {
    this(k, lexicalWeight, semanticWeight, false);
  }

  /** The learned ranker: HYBRID's default (see the class comment). */
  public static Fusion learned() {
    return LEARNED;
  }

  /**
   * Reciprocal rank fusion with k = {@value #DEFAULT_K} and equal weights, then the hand-set
   * stack (the default before the learned ranker).
   */
  public static Fusion rrf() {
    return RRF;
  }

  /** Weighted reciprocal rank fusion with k = {@value #DEFAULT_K}. */
  public static Fusion weighted(double lexicalWeight, double semanticWeight) {
    return new Fusion(DEFAULT_K, lexicalWeight, semanticWeight);
  }

  /** The fused score of ranks {@code lexicalRank} and {@code semanticRank} (0: not ranked). */
  public double raw(int lexicalRank, int semanticRank) {
    double s = 0;
    if (lexicalRank > 0) {
      s += lexicalWeight / (k + lexicalRank);
    }
    if (semanticRank > 0) {
      s += semanticWeight / (k + semanticRank);
    }
    return s;
  }

  /** The largest attainable fused score: rank 1 in both engines. */
  public double max() {
    return (lexicalWeight + semanticWeight) / (k + 1);
  }

  /** {@link #raw} divided by {@link #max}, clamped into [0, 1]. */
  public double normalised(int lexicalRank, int semanticRank) {
    return Math.min(1.0, Math.max(0.0, raw(lexicalRank, semanticRank) / max()));
  }
}
