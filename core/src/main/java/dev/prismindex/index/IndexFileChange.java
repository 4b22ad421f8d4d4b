package dev.prismindex.index;

import org.jspecify.annotations.Nullable;

/**
 * One changed file in an update batch. Fields are untrusted until {@link IndexFacade#update}
 * validates them (relative paths, a non-negative byte count, an {@code oldPath} for renames).
 *
 * @param path repository-relative, {@code /}-separated path
 * @param kind what happened to the file
 * @param oldPath the rename source; required for {@link IndexFileChangeKind#RENAME}
 * @param bytes the file's size as the host saw it, if known (informational)
 */
public record IndexFileChange(
    @Nullable String path, @Nullable IndexFileChangeKind kind, @Nullable String oldPath,
    @Nullable Long bytes) {

  /** A change without rename source or size. */
  public static IndexFileChange of(String path, IndexFileChangeKind kind) {
    return new IndexFileChange(path, kind, null, null);
  }

  /** A rename from {@code oldPath} to {@code path}. */
  public static IndexFileChange rename(String oldPath, String path) {
    return new IndexFileChange(path, IndexFileChangeKind.RENAME, oldPath, null);
  }
}
