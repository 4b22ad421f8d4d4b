package dev.prismindex.index;

import java.util.Objects;

/**
 * A failure of the index seam with a stable {@link #code()}. Messages are fixed texts chosen by the
 * composite, never text supplied by a backend.
 */
public final class IndexException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final IndexErrorCode code;

  /** Creates an error with a stable code and a composite-chosen message. */
  public IndexException(IndexErrorCode code, String message) {
    super(message);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** Creates an error that keeps the underlying cause for debugging (never shown to callers). */
  public IndexException(IndexErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The stable error code. */
  public IndexErrorCode code() {
    return code;
  }
}
