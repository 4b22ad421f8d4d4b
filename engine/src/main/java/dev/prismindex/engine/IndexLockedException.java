package dev.prismindex.engine;

import java.io.IOException;
import java.nio.file.Path;

/** Another writer (usually another process) holds the index's write lock. */
public final class IndexLockedException extends IOException {
  private static final long serialVersionUID = 1L;

  public IndexLockedException(Path home, Throwable cause) {
    super("index at " + home + " is being written by another process (write.lock is held)", cause);
  }
}
