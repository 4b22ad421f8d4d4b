package dev.prismindex.repository;

import java.util.Locale;

/** What a walked directory entry is, from {@code lstat} (symbolic links are reported, not followed). */
public enum RepoEntryKind {
  FILE,
  DIRECTORY,
  SYMLINK,
  OTHER;

  /** The lower-case wire name: {@code file}, {@code directory}, {@code symlink}, {@code other}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
