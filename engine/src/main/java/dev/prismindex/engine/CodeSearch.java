package dev.prismindex.engine;

import java.io.IOException;
import java.util.List;

/**
 * The search port: a query in, located hits out. The query text is never parsed as a query
 * language; any string (brackets, quotes, wildcards, control characters, 10 KB of text) is valid.
 */
public interface CodeSearch {

  /**
   * Searches the index.
   *
   * @param query free text or an identifier; never interpreted as query syntax
   * @param opts limit, mode and scope
   * @return at most {@code opts.limit()} hits, best first; empty when nothing matches
   * @throws SemanticSearchUnavailableException when {@code opts.mode()} needs an embedding model and
   *     none is available
   * @throws IOException when the index cannot be read
   */
  List<Hit> search(String query, SearchOpts opts) throws IOException;
}
