package dev.prismindex.engine;

import dev.prismindex.index.PrismIndexException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A semantic or hybrid search (or the seam's {@code semantic} mode) was asked of an index that
 * cannot answer it: no embedding model, semantic search disabled, a model that differs from the
 * index's, or a model that failed ({@link #state()}). Never answered silently with lexical
 * results; lexical and literal search keep working. This is the engine's only "embedding model
 * unavailable" error (the CLI maps it to exit code 4); every message starts with {@value #PREFIX}.
 * Checked, as the other {@link PrismIndexException}s (it was an unchecked
 * {@code IllegalStateException} before issue 39).
 */
public final class SemanticSearchUnavailableException extends PrismIndexException {
  private static final long serialVersionUID = 1L;

  /** The code of this error. */
  public static final String CODE = "ERR_PRISM_SEMANTIC_UNAVAILABLE";

  /** The start of every message of this error. */
  public static final String PREFIX = "embedding model unavailable: ";

  /** The message when no embedding model is on the class path. */
  public static final String MESSAGE = PREFIX
      + "no embedding model on the class path (add prism-index-model-minilm)";

  private final SemanticState state;

  /** The error for a missing model ({@link SemanticState#NO_MODEL}, {@link #MESSAGE}). */
  public SemanticSearchUnavailableException() {
    this(SemanticState.NO_MODEL, MESSAGE, null);
  }

  /**
   * An error with its state and message (prefixed with {@value #PREFIX} when it does not start
   * with it).
   *
   * @throws IllegalArgumentException when {@code state} is {@link SemanticState#AVAILABLE}
   */
  public SemanticSearchUnavailableException(SemanticState state, String message,
      @Nullable Throwable cause) {
    super(message.startsWith(PREFIX) ? message : PREFIX + message, cause);
    this.state = Objects.requireNonNull(state, "state");
    if (state == SemanticState.AVAILABLE) {
      throw new IllegalArgumentException("an unavailable state is required");
    }
  }

  /** Why semantic search is unavailable (never {@link SemanticState#AVAILABLE}). */
  public SemanticState state() {
    return state;
  }

  /** {@value #CODE}. */
  @Override
  public String code() {
    return CODE;
  }
}
