package dev.prismindex.index;

import java.util.Locale;

/**
 * The frozen lifecycle of an index. Only {@link #READY} and {@link #STALE} indexes are queried, and
 * only while their attested {@code updatedAt} is inside the stale window.
 */
public enum IndexState {
  /** Nothing has been indexed yet. */
  EMPTY,
  /** An update is running; the index is not served. */
  BUILDING,
  /** The index reflects its attested source revision. */
  READY,
  /** The backend knows it lags the tree; still served while its timestamp is fresh. */
  STALE,
  /** The last update failed; nothing is served until an update succeeds. */
  FAILED;

  /** The lower-case wire name, e.g. {@code ready}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
