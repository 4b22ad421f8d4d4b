package dev.prismindex.index;

/**
 * What a backend can answer. Every backend answers {@code indexed_literal}; {@code semantic} must be
 * declared explicitly.
 *
 * @param semantic whether the backend answers {@link dev.prismindex.repository.SearchMode#SEMANTIC}
 */
public record IndexCapabilities(boolean semantic) {
  /** Capabilities of a backend that answers {@code indexed_literal} only. */
  public static final IndexCapabilities LITERAL_ONLY = new IndexCapabilities(false);
  /** Capabilities of a backend that also answers {@code semantic}. */
  public static final IndexCapabilities SEMANTIC = new IndexCapabilities(true);
}
