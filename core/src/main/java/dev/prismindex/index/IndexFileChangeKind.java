package dev.prismindex.index;

import java.util.Locale;

/** What happened to a file since the index last saw it. */
public enum IndexFileChangeKind {
  ADD,
  EDIT,
  DELETE,
  /** Moved from {@link IndexFileChange#oldPath()} to {@link IndexFileChange#path()}. */
  RENAME;

  /** The lower-case wire name, e.g. {@code rename}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
