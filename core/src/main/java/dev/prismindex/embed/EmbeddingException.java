package dev.prismindex.embed;

/** An embedding model could not be loaded or failed to embed. */
public final class EmbeddingException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Creates an error with a caller-facing message. */
  public EmbeddingException(String message) {
    super(message);
  }

  /** Creates an error with a caller-facing message and its cause. */
  public EmbeddingException(String message, Throwable cause) {
    super(message, cause);
  }
}
