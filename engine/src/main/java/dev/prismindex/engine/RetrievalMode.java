package dev.prismindex.engine;

/** Which engine answers a {@link CodeSearch} query. */
public enum RetrievalMode {
  /** BM25 over code-aware tokens (identifiers split and kept whole), definitions boosted. */
  LEXICAL,
  /** k-NN over chunk embeddings (the query string alone is embedded); needs an embedding model. */
  SEMANTIC,
  /** Lexical and semantic fused by reciprocal rank ({@link Fusion}); needs an embedding model. */
  HYBRID
}
