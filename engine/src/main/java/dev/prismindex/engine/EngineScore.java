package dev.prismindex.engine;

/**
 * How one engine ranked a hit.
 *
 * @param rank 1-based rank of the hit in that engine's own result list
 * @param score the engine's raw score (BM25 for lexical, cosine similarity in [-1, 1] for
 *     semantic, 1.0 or 0.5 for a literal match in the content or on the path alone)
 */
public record EngineScore(int rank, double score) {

  /**
   * Validates the rank.
   *
   * @throws IllegalArgumentException when {@code rank < 1}
   */
  public EngineScore {
    if (rank < 1) {
      throw new IllegalArgumentException("rank must be >= 1: " + rank);
    }
  }
}
