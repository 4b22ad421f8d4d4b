package dev.prismindex.engine;

import java.util.Objects;

/**
 * How {@link HybridIndex#refresh(RefreshOptions)} runs.
 *
 * @param fullRebuild re-read and re-chunk every file, replacing every lexical document (one
 *     commit); vectors of the current model are kept as cache (they are keyed by content), vectors
 *     of another model are dropped; an index whose files fail their checksums is replaced whole
 *     (its vectors too)
 * @param verify hash every file instead of trusting unchanged stat data, after verifying the
 *     checksums of the index files ({@link CorruptIndexException} when they fail)
 * @param embed after the lexical commit, embed the chunks that have no vector yet (when semantic
 *     search is available); false leaves them for a later run (coverage stays incomplete)
 * @param progress receives progress snapshots ({@link IndexProgressListener#NONE} by default)
 */
public record RefreshOptions(boolean fullRebuild, boolean verify, boolean embed,
    IndexProgressListener progress) {

  /** An incremental run that trusts stat data where git's racy-timestamp rule allows. */
  public static final RefreshOptions INCREMENTAL = new RefreshOptions(false, false);
  /** An incremental run that hashes every file. */
  public static final RefreshOptions VERIFY = new RefreshOptions(false, true);
  /** A full rebuild. */
  public static final RefreshOptions FULL = new RefreshOptions(true, true);

  public RefreshOptions {
    Objects.requireNonNull(progress, "progress");
  }

  /** Options that embed and report no progress. */
  public RefreshOptions(boolean fullRebuild, boolean verify) {
    this(fullRebuild, verify, true, IndexProgressListener.NONE);
  }

  /** These options with {@code listener} receiving progress. */
  public RefreshOptions withProgress(IndexProgressListener listener) {
    return new RefreshOptions(fullRebuild, verify, embed, listener);
  }

  /** These options with embedding on or off. */
  public RefreshOptions withEmbedding(boolean value) {
    return new RefreshOptions(fullRebuild, verify, value, progress);
  }
}
