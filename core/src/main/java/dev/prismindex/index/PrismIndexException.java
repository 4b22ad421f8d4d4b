package dev.prismindex.index;

import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The common base of the failures a caller of a prism-index index handles: the engine's index is
 * damaged, written by another version, locked or read-only, semantic search cannot be served, a
 * cluster cannot be reached. Each subclass has a stable {@link #code()} and a message that says
 * what fixes it. An {@link IOException}, as these failures always were: code that catches
 * {@code IOException} around an index call keeps catching them, and
 * {@code catch (PrismIndexException e)} tells them from plain I/O errors.
 *
 * <p>The seam's own errors are unchecked, as the contract specifies them: {@link IndexException}
 * (with an {@link IndexErrorCode}) from the composite, and
 * {@link dev.prismindex.repository.RepositoryException} from the literal operations.
 */
public abstract class PrismIndexException extends IOException {

  private static final long serialVersionUID = 1L;

  /** An error with its message (what is wrong and what fixes it) and cause. */
  protected PrismIndexException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }

  /** The stable code of this kind of failure, {@code ERR_PRISM_...}. */
  public abstract String code();
}
