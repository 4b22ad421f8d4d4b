package dev.prismindex.engine;

import dev.prismindex.index.PrismIndexException;
import java.nio.file.Path;

/**
 * The index's write lock cannot be taken: another writer (usually another process) holds it, or
 * the index's directory cannot be written at all ({@link #readOnly()}: a read-only file system, no
 * permission). Either way the last commit stays searchable.
 */
public final class IndexLockedException extends PrismIndexException {
  private static final long serialVersionUID = 1L;

  /** The code of this error when another writer holds the lock. */
  public static final String CODE = "ERR_PRISM_INDEX_LOCKED";

  /** The code of this error when the index cannot be written at all ({@link #readOnly()}). */
  public static final String READ_ONLY_CODE = "ERR_PRISM_INDEX_READ_ONLY";

  private final boolean readOnly;

  public IndexLockedException(Path home, Throwable cause) {
    this("index at " + home + " is being written by another process (write.lock is held)", cause,
        false);
  }

  private IndexLockedException(String message, Throwable cause, boolean readOnly) {
    super(message, cause);
    this.readOnly = readOnly;
  }

  /** The index at {@code home} cannot be written: its directory is read-only to this process. */
  public static IndexLockedException readOnly(Path home, Throwable cause) {
    return new IndexLockedException("index at " + home + " cannot be written (its directory is"
        + " read-only: " + cause.getMessage() + ")", cause, true);
  }

  /** Whether the index's directory cannot be written, rather than being written by another. */
  public boolean readOnly() {
    return readOnly;
  }

  /** {@value #CODE}, or {@value #READ_ONLY_CODE} when {@link #readOnly()}. */
  @Override
  public String code() {
    return readOnly ? READ_ONLY_CODE : CODE;
  }
}
