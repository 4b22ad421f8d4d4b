package dev.prismindex.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The index's write lock cannot be taken: another writer (usually another process) holds it, or
 * the index's directory cannot be written at all ({@link #readOnly()}: a read-only file system, no
 * permission). Either way the last commit stays searchable.
 */
public final class IndexLockedException extends IOException {
  private static final long serialVersionUID = 1L;

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
}
