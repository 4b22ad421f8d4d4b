package dev.prismindex.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The index files are damaged (a checksum or header does not match). The cause is Lucene's own
 * exception. Rebuild the index.
 */
public final class CorruptIndexException extends IOException {
  private static final long serialVersionUID = 1L;

  public CorruptIndexException(Path home, Throwable cause) {
    super("corrupt index at " + home + ": " + cause.getMessage() + "; rebuild the index", cause);
  }

  /** Damage a store reports of its index at {@code location} ({@code Store#health()}). */
  public CorruptIndexException(String location, String reason) {
    super("corrupt index at " + location + ": " + reason + "; rebuild the index");
  }
}
