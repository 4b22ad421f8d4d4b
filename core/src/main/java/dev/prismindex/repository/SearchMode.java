package dev.prismindex.repository;

import java.util.Locale;
import java.util.Optional;

/**
 * How a search is answered: {@link #LITERAL} by the bounded scanner, {@link #INDEXED_LITERAL} and
 * {@link #SEMANTIC} by an index backend through the seam.
 */
public enum SearchMode {
  /** Case-insensitive (by default) substring match by scanning files; never an index. */
  LITERAL,
  /** The same substring semantics, answered from a host index with relevance scores. */
  INDEXED_LITERAL,
  /** Meaning-based search from a semantic-capable host index. */
  SEMANTIC;

  /** The wire name: {@code literal}, {@code indexed_literal} or {@code semantic}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a wire name exactly (case-sensitive); empty for anything else. */
  public static Optional<SearchMode> fromWireName(String name) {
    for (SearchMode mode : values()) {
      if (mode.wireName().equals(name)) {
        return Optional.of(mode);
      }
    }
    return Optional.empty();
  }
}
