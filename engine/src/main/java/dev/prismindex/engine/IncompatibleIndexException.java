package dev.prismindex.engine;

import dev.prismindex.index.PrismIndexException;

/**
 * The index on disk was written by another format or analyzer version than this library reads.
 * Rebuild it (delete the index home, or refresh with {@link RefreshOptions#fullRebuild()}).
 */
public final class IncompatibleIndexException extends PrismIndexException {
  private static final long serialVersionUID = 1L;

  /** The code of this error. */
  public static final String CODE = "ERR_PRISM_INDEX_INCOMPATIBLE";

  private final String what;
  private final String found;
  private final String expected;

  /**
   * @param what the versioned component ({@code "format"} or {@code "analyzer"})
   * @param found the version recorded in the index
   * @param expected the version this library writes
   */
  public IncompatibleIndexException(String what, String found, String expected) {
    super("incompatible index: " + what + " version " + found + " found, " + expected
        + " expected; rebuild the index", null);
    this.what = what;
    this.found = found;
    this.expected = expected;
  }

  /** The versioned component: {@code "format"} or {@code "analyzer"}. */
  public String what() {
    return what;
  }

  /** The version recorded in the index. */
  public String found() {
    return found;
  }

  /** The version this library expects. */
  public String expected() {
    return expected;
  }

  /** {@value #CODE}. */
  @Override
  public String code() {
    return CODE;
  }
}
