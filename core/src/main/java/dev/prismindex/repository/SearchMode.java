package dev.prismindex.repository;

import java.util.Locale;
import java.util.Optional;

/**
 * How a search is answered, one vocabulary for every surface (library, CLI, resident server, MCP):
 * {@link #LITERAL} and {@link #REGEX} by the bounded scanner (or an engine whose exact search
 * equals it), the others by an index backend through the seam. A surface offers exactly the modes
 * it is configured with.
 */
public enum SearchMode {
  /** Case-insensitive (by default) substring match by scanning files; never an index. */
  LITERAL,
  /**
   * A regular expression matched line by line with ripgrep's semantics ({@link RegexPattern}), by
   * scanning files or from an engine's gram index; never a seam backend. Case-sensitive unless
   * asked otherwise. The {@code repo_search} tool of the contract does not offer it.
   */
  REGEX,
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

  /** Whether the answer is every exact match in path and line order ({@link #LITERAL}, {@link #REGEX}). */
  public boolean exact() {
    return this == LITERAL || this == REGEX;
  }

  /**
   * The wire name: {@code literal}, {@code regex}, {@code indexed_literal}, {@code lexical},
   * {@code semantic} or {@code hybrid}.
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
