package dev.prismindex.engine.spi;

import dev.prismindex.engine.SkipReason;

/**
 * A file a walk read and left out by its content (binary, a private key), remembered by its stat
 * data like an indexed file, so a later run that finds the same size and modification time skips it
 * again without reading it.
 *
 * @param path repository-relative path
 * @param reason why it was left out
 * @param size size in bytes when recorded
 * @param mtimeNs modification time (epoch nanoseconds) when recorded
 * @param recordedMs when the stat data was taken (epoch milliseconds)
 */
public record SkippedFile(String path, SkipReason reason, long size, long mtimeNs,
    long recordedMs) {

  /** Whether unchanged stat data proves unchanged content (the rule of {@link FileEntry}). */
  public boolean statProvesUnchanged(long currentSize, long currentMtimeNs) {
    return FileEntry.statProvesUnchanged(size, mtimeNs, recordedMs, currentSize, currentMtimeNs);
  }
}
