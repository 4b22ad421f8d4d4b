package dev.prismindex.engine;

import dev.prismindex.repository.SearchMode;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The answer of {@link CodeSearch#searchResult}: the hits plus what the caller should know about
 * them.
 *
 * @param hits at most {@code limit} hits, best first (the same list {@link CodeSearch#search}
 *     returns; literal answers in path, line order)
 * @param mode the mode that answered
 * @param coverage the semantic coverage of the commit that answered
 * @param notSearched for literal answers, the files not searched by reason (lower-case
 *     {@link SkipReason} names, sorted): those the last indexing run left out of the index (binary,
 *     oversize, secret, ...: for the whole repository, whatever the scope) plus candidates that
 *     could not be read as text at search time; empty for the ranked modes and when every file was
 *     searched
 * @param truncated whether the limit cut the answer: at least one further hit exists beyond
 *     {@code hits} (the next candidate in rank order that still locates in the working tree, or
 *     the next literal match). Finding it never changes the hits returned: the candidate depth of
 *     a ranked search depends on the limit alone
 * @param everyFileRead REGEX: the pattern requires no trigram the index can use (a class of many
 *     characters, pieces shorter than three characters, or only trigrams too common to index), so
 *     every indexed file the filter selects was read and matched; false for the other modes
 */
public record SearchResult(List<Hit> hits, SearchMode mode, SemanticCoverage coverage,
    Map<String, Integer> notSearched, boolean truncated, boolean everyFileRead) {

  /** Copies the hits and the counts. */
  public SearchResult {
    hits = List.copyOf(hits);
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(coverage, "coverage");
    notSearched = Collections.unmodifiableMap(new TreeMap<>(notSearched));
  }

  /** A result that did not read every file for want of grams. */
  public SearchResult(List<Hit> hits, SearchMode mode, SemanticCoverage coverage,
      Map<String, Integer> notSearched, boolean truncated) {
    this(hits, mode, coverage, notSearched, truncated, false);
  }

  /** A result that the limit did not cut. */
  public SearchResult(List<Hit> hits, SearchMode mode, SemanticCoverage coverage,
      Map<String, Integer> notSearched) {
    this(hits, mode, coverage, notSearched, false);
  }

  /** A result that searched every file and that the limit did not cut. */
  public SearchResult(List<Hit> hits, SearchMode mode, SemanticCoverage coverage) {
    this(hits, mode, coverage, Map.of());
  }

  /**
   * Whether a semantic or hybrid answer was computed while some chunks had no vector yet (it may
   * miss them; run a refresh to complete the embeddings). Always false for the other modes.
   */
  public boolean partial() {
    return mode.needsSemantic() && !coverage.complete();
  }
}
