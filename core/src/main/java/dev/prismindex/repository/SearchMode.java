package dev.prismindex.repository;

import java.util.Locale;
import java.util.Optional;

/**
 * How a search is answered, one vocabulary for every surface (library, CLI, resident server, MCP):
 * {@link #LITERAL} by the bounded scanner (or an engine whose exact search equals it), the others by
 * an index backend through the seam. A surface offers exactly the modes it is configured with.
 */
public enum SearchMode {
  /** Case-insensitive (by default) substring match by scanning files; never an index. */
  LITERAL,
  /** The same substring semantics, answered from a host index with relevance scores. */
  INDEXED_LITERAL,
  /** Ranked keyword search (BM25 over code-aware tokens) from a host index. */
  LEXICAL,
  /** Meaning-based search from a semantic-capable host index. */
  SEMANTIC,
  /** Lexical and semantic rankings fused; needs a semantic-capable host index. */
  HYBRID;

  /** Whether answering needs a semantic-capable backend ({@link #SEMANTIC}, {@link #HYBRID}). */
  public boolean needsSemantic() {
    return this == SEMANTIC || this == HYBRID;
  }

  /**
   * The wire name: {@code literal}, {@code indexed_literal}, {@code lexical}, {@code semantic} or
   * {@code hybrid}.
   */
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
