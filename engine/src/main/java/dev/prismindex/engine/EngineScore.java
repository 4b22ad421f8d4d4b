package dev.prismindex.engine;

/**
 * How one engine ranked a hit.
 *
 * @param rank 1-based rank of the hit in that engine's own result list
 * @param score the engine's raw score (BM25 for lexical, cosine similarity in [-1, 1] for
 *     semantic)
 */
public record EngineScore(int rank, double score) {
  public EngineScore {
    if (rank < 1) {
      throw new IllegalArgumentException("rank must be >= 1: " + rank);
    }
  }
}
