package dev.prismindex.engine;

/** Which engine answers a {@link CodeSearch} query. */
public enum RetrievalMode {
  /** BM25 over code-aware tokens (identifiers split and kept whole), definitions boosted. */
  LEXICAL,
  /** k-NN over chunk embeddings; needs an embedding model (not available in this version). */
  SEMANTIC,
  /** Lexical and semantic fused by reciprocal rank; needs an embedding model. */
  HYBRID
}
