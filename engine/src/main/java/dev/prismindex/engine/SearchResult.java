package dev.prismindex.engine;

import java.util.List;
import java.util.Objects;

/**
 * The answer of {@link CodeSearch#searchResult}: the hits plus what the caller should know about
 * them.
 *
 * @param hits at most {@code limit} hits, best first (the same list {@link CodeSearch#search}
 *     returns)
 * @param mode the mode that answered
 * @param coverage the semantic coverage of the commit that answered
 */
public record SearchResult(List<Hit> hits, RetrievalMode mode, SemanticCoverage coverage) {

  public SearchResult {
    hits = List.copyOf(hits);
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(coverage, "coverage");
  }

  /**
   * Whether a semantic or hybrid answer was computed while some chunks had no vector yet (it may
   * miss them; run a refresh to complete the embeddings). Always false for lexical answers.
   */
  public boolean partial() {
    return mode != RetrievalMode.LEXICAL && !coverage.complete();
  }
}
