package dev.prismindex.index;

import java.util.Locale;

/**
 * The frozen lifecycle of an index. Only a {@link #READY} index is queried, and only while its attested
 * {@code updatedAt} is inside the stale window.
 */
public enum IndexState {
  /** Nothing has been indexed yet. */
  EMPTY,
  /** An update is running; the index is not served. */
  BUILDING,
  /** The index reflects its attested source revision. */
  READY,
  /**
   * The backend knows it lags the tree. Not served (the reference serves it while its timestamp is
   * fresh; we believe the backend and refuse).
   */
  STALE,
  /** The last update failed; nothing is served until an update succeeds. */
  FAILED;

  /** The lower-case wire name, e.g. {@code ready}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
