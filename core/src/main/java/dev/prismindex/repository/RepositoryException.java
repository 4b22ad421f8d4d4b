package dev.prismindex.repository;

/**
 * The one error of literal repository operations: a bad path, a bad query or pattern, an unreadable
 * root, a failing git enumeration. The message is meant for the caller (and for an agent reading a
 * tool result); it never carries file contents.
 */
public final class RepositoryException extends RuntimeException {

  /** The stable code of every repository error. */
  public static final String CODE = "ERR_PRISM_REPOSITORY";

  private static final long serialVersionUID = 1L;

  /** Creates an error with the given caller-facing message. */
  public RepositoryException(String message) {
    super(message);
  }

  /** Creates an error with a caller-facing message and the underlying cause (kept for debugging). */
  public RepositoryException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always {@value #CODE}. */
  public String code() {
    return CODE;
  }
}
