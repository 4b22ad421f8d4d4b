package dev.prismindex.repository;

import java.util.Locale;
import java.util.Optional;

/** How the {@code repo_search} tool renders a search result; operations ignore it. */
public enum OutputMode {
  /** Every match with its context lines. */
  CONTENT,
  /** The sorted unique paths that matched. */
  FILES_WITH_MATCHES,
  /** Only the number of matches and files. */
  COUNT;

  /** The wire name: {@code content}, {@code files_with_matches} or {@code count}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a wire name exactly; empty for anything else. */
  public static Optional<OutputMode> fromWireName(String name) {
    for (OutputMode mode : values()) {
      if (mode.wireName().equals(name)) {
        return Optional.of(mode);
      }
    }
    return Optional.empty();
  }
}
