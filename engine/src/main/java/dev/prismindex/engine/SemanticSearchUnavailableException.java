package dev.prismindex.engine;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A semantic or hybrid search (or the seam's {@code semantic} mode) was asked of an index that
 * cannot answer it: no embedding model, semantic search disabled, a model that differs from the
 * index's, or a model that failed. Never answered silently with lexical results; lexical and
 * literal search keep working. This is the engine's only "embedding model unavailable" error
 * (the CLI maps it to exit code 4); every message starts with {@value #PREFIX}.
 */
public final class SemanticSearchUnavailableException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** The start of every message of this error. */
  public static final String PREFIX = "embedding model unavailable: ";

  /** The message when no embedding model is on the class path. */
  public static final String MESSAGE = PREFIX
      + "no embedding model on the class path (add prism-index-model-minilm)";

  /** Why semantic search is unavailable. */
  public enum Reason {
    /** No embedding model on the class path. */
    NO_MODEL,
    /** Semantic search was switched off in the options. */
    DISABLED,
    /** The index was built with another model or dimension; a full rebuild fixes it. */
    MODEL_MISMATCH,
    /** The model failed to load or to embed. */
    MODEL_FAILED
  }

  private final Reason reason;

  /** The error for a missing model ({@link #MESSAGE}). */
  public SemanticSearchUnavailableException() {
    this(Reason.NO_MODEL, MESSAGE, null);
  }

  /**
   * An error with its reason and message (prefixed with {@value #PREFIX} when it does not start
   * with it).
   */
  public SemanticSearchUnavailableException(Reason reason, String message,
      @Nullable Throwable cause) {
    super(message.startsWith(PREFIX) ? message : PREFIX + message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /** Why semantic search is unavailable. */
  public Reason reason() {
    return reason;
  }
}
