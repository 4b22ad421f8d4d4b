package dev.prismindex.engine;

/**
 * A semantic or hybrid search was asked of an index that has no embedding model. Never answered
 * silently with lexical results.
 */
public final class SemanticSearchUnavailableException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** The fixed message of this error. */
  public static final String MESSAGE = "semantic search unavailable: no embedding model";

  public SemanticSearchUnavailableException() {
    super(MESSAGE);
  }
}
