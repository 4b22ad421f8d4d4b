package dev.prismindex.engine.internal.seam;

import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.internal.query.LiteralHits.Snippet;
import dev.prismindex.engine.internal.query.QueryPlanner.LiteralAnswer;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SeamRequests} needs of an index to serve the seam: runs over named paths and the
 * searches. {@link SeamAdapter} implements it over a {@code HybridIndex}; the requests' checks
 * and conversions stay apart from the index they run on.
 */
public interface SeamTarget {

  /** Re-indexes exactly {@code upserts}, drops {@code deletes}, records {@code revision}. */
  void update(List<String> upserts, List<String> deletes, String revision) throws IOException;

  /** Drops the paths. */
  void remove(List<String> paths) throws IOException;

  /** A ranked search (see {@code HybridIndex.searchResult}). */
  SearchResult search(String query, SearchOpts opts) throws IOException;

  /** Literal matches as hits (see {@code QueryPlanner.literal}). */
  LiteralAnswer literal(String query, boolean caseSensitive, @Nullable String scope,
      int maxMatches, boolean onePerFile, AbortSignal signal, SearchMode mode, Snippet snippet)
      throws IOException;

  /** What the seam's {@code semantic} mode runs. */
  SearchMode seamSemanticMode();
}
