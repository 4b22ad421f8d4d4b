package dev.prismindex.engine;

/** Whether a {@link HybridIndex} can answer {@link RetrievalMode#SEMANTIC} and HYBRID queries. */
public enum SemanticState {
  /** An embedding model is present and matches the index (or the index has no vectors yet). */
  AVAILABLE,
  /** Semantic search was switched off in {@link HybridIndexOptions#semantic()}. */
  DISABLED,
  /** No embedding model on the class path (e.g. without {@code prism-index-model-minilm}). */
  NO_MODEL,
  /** The index's vectors come from another model (id or dimension); a full rebuild fixes it. */
  MODEL_MISMATCH
}
