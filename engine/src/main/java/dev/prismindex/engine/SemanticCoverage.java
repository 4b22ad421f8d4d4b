package dev.prismindex.engine;

/**
 * How much of the index the semantic engine can see: embeddings are computed after the lexical
 * documents are committed, so right after a change (or after an interrupted run) some chunks have
 * no vector yet and semantic answers can miss them.
 *
 * @param chunks indexed chunks
 * @param chunksEmbedded chunks whose text has a vector
 */
public record SemanticCoverage(long chunks, long chunksEmbedded) {

  public SemanticCoverage {
    if (chunks < 0 || chunksEmbedded < 0 || chunksEmbedded > chunks) {
      throw new IllegalArgumentException("invalid coverage " + chunksEmbedded + "/" + chunks);
    }
  }

  /** {@code chunksEmbedded / chunks}; 1.0 for an index without chunks. */
  public double ratio() {
    return chunks == 0 ? 1.0 : chunksEmbedded / (double) chunks;
  }

  /** Whether every chunk has a vector. */
  public boolean complete() {
    return chunksEmbedded == chunks;
  }

  /** Chunks still without a vector. */
  public long missing() {
    return chunks - chunksEmbedded;
  }
}
