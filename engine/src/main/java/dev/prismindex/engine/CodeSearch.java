package dev.prismindex.engine;

import java.io.IOException;
import java.util.List;

/**
 * The search port: a query in, located hits out. The query text is never parsed as a query
 * language; any string (brackets, quotes, wildcards, control characters, 10 KB of text) is valid.
 */
public interface CodeSearch {

  /**
   * Searches the index: the hits of {@link #searchResult}.
   *
   * @param query free text or an identifier; never interpreted as query syntax
   * @param opts limit, mode (null: the implementation's default, see {@link SearchOpts#mode()})
   *     and scope
   * @return at most {@code opts.limit()} hits, best first; empty when nothing matches
   * @throws SemanticSearchUnavailableException when {@code opts.mode()} needs an embedding model and
   *     none is usable (missing, disabled, different from the index's, or failing)
   * @throws IOException when the index cannot be read
   */
  default List<Hit> search(String query, SearchOpts opts) throws IOException {
    return searchResult(query, opts).hits();
  }

  /**
   * Searches the index and also says how complete the answer is (semantic coverage, files not
   * searched, truncation).
   *
   * @throws SemanticSearchUnavailableException as {@link #search}
   * @throws IOException as {@link #search}
   */
  SearchResult searchResult(String query, SearchOpts opts) throws IOException;
}
