package dev.prismindex.engine;

/**
 * Whether a {@link HybridIndex} can answer {@link dev.prismindex.repository.SearchMode#SEMANTIC}
 * and HYBRID queries, and the one reason why not: {@link EngineStatus#semantic()} reports it, and
 * {@link SemanticSearchUnavailableException#state()} carries it.
 */
public enum SemanticState {
  /** An embedding model is present and matches the index (or the index has no vectors yet). */
  AVAILABLE,
  /** Semantic search was switched off in {@link HybridIndexOptions#semantic()}. */
  DISABLED,
  /** No embedding model on the class path (e.g. without {@code prism-index-model-minilm}). */
  NO_MODEL,
  /** The index's vectors come from another model (id or dimension); a full rebuild fixes it. */
  MODEL_MISMATCH,
  /**
   * The model failed to load or to embed (found only when it is used: never in
   * {@link EngineStatus#semantic()}).
   */
  MODEL_FAILED
}
