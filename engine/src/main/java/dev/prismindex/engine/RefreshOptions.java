package dev.prismindex.engine;

/**
 * How {@link HybridIndex#refresh(RefreshOptions)} runs.
 *
 * @param fullRebuild drop every document and index the tree from scratch (one commit)
 * @param verify hash every file instead of trusting unchanged stat data
 */
public record RefreshOptions(boolean fullRebuild, boolean verify) {
  /** An incremental run that trusts stat data where git's racy-timestamp rule allows. */
  public static final RefreshOptions INCREMENTAL = new RefreshOptions(false, false);
  /** An incremental run that hashes every file. */
  public static final RefreshOptions VERIFY = new RefreshOptions(false, true);
  /** A full rebuild. */
  public static final RefreshOptions FULL = new RefreshOptions(true, true);
}
