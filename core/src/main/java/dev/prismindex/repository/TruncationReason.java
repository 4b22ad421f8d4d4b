package dev.prismindex.repository;

import java.util.Locale;

/**
 * Why a result stopped early. A result that is not truncated has no reason.
 *
 * <p>List and glob use {@link #RESULTS}, {@link #ENTRIES}, {@link #FILES}, {@link #DEPTH},
 * {@link #TIME} and {@link #ABORT}; search uses {@link #MATCHES}, {@link #SCAN}, {@link #ENTRIES},
 * {@link #FILES}, {@link #DEPTH}, {@link #TIME}, {@link #ABORT}, and {@link #INDEX} for index results.
 */
public enum TruncationReason {
  /** A list/glob page is full and at least one more entry exists. */
  RESULTS,
  /** The walk visited {@code maxEntries} entries. */
  ENTRIES,
  /** The walk visited {@code maxFiles} files. */
  FILES,
  /** The walk reached a directory deeper than {@code maxDepth}. */
  DEPTH,
  /** The wall-clock budget ran out. */
  TIME,
  /** The caller's {@link AbortSignal} fired. */
  ABORT,
  /** More matches exist than {@code maxMatches}. */
  MATCHES,
  /** The scan budget {@code maxScanBytes} ran out. */
  SCAN,
  /** The index backend reported more hits than were served. */
  INDEX;

  /** The lower-case wire name, e.g. {@code matches}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
