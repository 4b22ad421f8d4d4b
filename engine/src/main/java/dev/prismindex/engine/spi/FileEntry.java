package dev.prismindex.engine.spi;

/**
 * One manifest entry: what the index knows of a file.
 *
 * @param path repository-relative path
 * @param hash BLAKE3-256 hex of the file's bytes
 * @param size size in bytes when recorded
 * @param mtimeNs modification time (epoch nanoseconds) when recorded
 * @param recordedMs when the stat data was taken (epoch milliseconds)
 * @param language detected language
 * @param chunks number of chunk documents
 */
public record FileEntry(String path, String hash, long size, long mtimeNs, long recordedMs,
    String language, int chunks) {

  /**
   * The safety margin of the racy-timestamp rule: a file modified less than this long before its
   * stat was recorded is always re-hashed (file systems with coarse timestamps can hide a second
   * write in the same tick).
   */
  public static final long RACY_MARGIN_MS = 2_000;

  /**
   * Whether unchanged stat data proves unchanged content (git's racy-timestamp rule): same size,
   * same mtime, and the mtime strictly older than the recording time minus {@link #RACY_MARGIN_MS}.
   */
  public boolean statProvesUnchanged(long currentSize, long currentMtimeNs) {
    return statProvesUnchanged(size, mtimeNs, recordedMs, currentSize, currentMtimeNs);
  }

  /** The racy-timestamp rule on recorded stat data (also of {@link SkippedFile}). */
  static boolean statProvesUnchanged(long size, long mtimeNs, long recordedMs, long currentSize,
      long currentMtimeNs) {
    return currentSize == size && currentMtimeNs == mtimeNs
        && currentMtimeNs / 1_000_000 < recordedMs - RACY_MARGIN_MS;
  }

  /** Whether size and mtime equal the recorded ones (not a proof: see {@link #statProvesUnchanged}). */
  public boolean statMatches(long currentSize, long currentMtimeNs) {
    return currentSize == size && currentMtimeNs == mtimeNs;
  }
}
