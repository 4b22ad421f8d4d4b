package dev.prismindex.repository;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One walked entry.
 *
 * @param path root-relative, {@code /}-separated path
 * @param kind what the entry is, from {@code lstat}
 * @param size byte size from {@code lstat}; present for files only
 */
public record RepoListEntry(String path, RepoEntryKind kind, @Nullable Long size) {
  public RepoListEntry {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(kind, "kind");
  }
}
