package dev.prismindex.engine;

import dev.prismindex.index.PrismIndexException;
import java.nio.file.Path;

/**
 * The index files are damaged (a checksum or header does not match). The cause is Lucene's own
 * exception. Rebuild the index.
 */
public final class CorruptIndexException extends PrismIndexException {
  private static final long serialVersionUID = 1L;

  /** The code of this error. */
  public static final String CODE = "ERR_PRISM_INDEX_CORRUPT";

  public CorruptIndexException(Path home, Throwable cause) {
    super("corrupt index at " + home + ": " + cause.getMessage() + "; rebuild the index", cause);
  }

  /** Damage a store reports of its index at {@code location} ({@code Store#health()}). */
  public CorruptIndexException(String location, String reason) {
    super("corrupt index at " + location + ": " + reason + "; rebuild the index", null);
  }

  /** {@value #CODE}. */
  @Override
  public String code() {
    return CODE;
  }
}
