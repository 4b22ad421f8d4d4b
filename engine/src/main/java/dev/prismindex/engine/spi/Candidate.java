package dev.prismindex.engine.spi;

/**
 * A chunk as one signal ranked it (its stored fields are read only when the kernel asks: {@link
 * StoreReader#chunk}).
 *
 * @param chunk the chunk's id within its reader
 * @param rank 1-based rank in that signal's list
 * @param score the signal's raw score: the sum of the BM25 parts, or the cosine similarity
 * @param parts the score of each part of the request, in its order ({@link LexicalQuery#parts()});
 *     for k-NN the one cosine. The kernel's ranker reads them as features (per-field BM25), so a
 *     store fills them, never leaves them out
 */
public record Candidate(int chunk, int rank, double score, double[] parts) {

  /** A candidate of a one-part request (its one part is its score). */
  public Candidate(int chunk, int rank, double score) {
    this(chunk, rank, score, new double[] {score});
  }
}
