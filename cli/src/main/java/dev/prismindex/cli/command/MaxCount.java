package dev.prismindex.cli.command;

import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code search -m NUM} (grep's max count) in a ranked mode: at most NUM hits from each file, the
 * best ones, and still up to the limit in all. When the cap drops hits, the search is asked again
 * four times as deep (up to {@value SearchRequests#MAX_LIMIT} hits) until the limit is filled or
 * nothing more is found. (An exact mode caps inside the engine, which then reads a file no
 * further: {@code SearchOpts.maxPerFile}.)
 */
public final class MaxCount {

  private MaxCount() {}

  /**
   * Runs {@code request} on {@code backend} with at most {@code perFile} hits from each file.
   *
   * @return the answer with the capped hits; {@link SearchAnswer#truncated()} when more capped
   *     hits exist than the limit shows (or may: the deepest search was cut)
   */
  public static SearchAnswer search(Backend backend, SearchRequest request, int perFile)
      throws CliFailure, IOException {
    int limit = request.limit();
    int depth = limit;
    while (true) {
      SearchAnswer answer = backend.search(request.withLimit(depth));
      List<Hit> kept = cap(answer.hits(), perFile);
      boolean deeper = answer.truncated() && depth < SearchRequests.MAX_LIMIT;
      if (kept.size() > limit || !deeper) {
        boolean more = kept.size() > limit || answer.truncated();
        SearchResult r = answer.result();
        List<Hit> shown = kept.subList(0, Math.min(limit, kept.size()));
        return answer.withResult(
            new SearchResult(shown, r.mode(), r.coverage(), r.notSearched(), more,
                r.everyFileRead()));
      }
      depth = (int) Math.min(SearchRequests.MAX_LIMIT, depth * 4L);
    }
  }

  /** The first {@code perFile} hits of each file, in their order. */
  static List<Hit> cap(List<Hit> hits, int perFile) {
    Map<String, Integer> seen = new HashMap<>();
    List<Hit> kept = new ArrayList<>();
    for (Hit h : hits) {
      if (seen.merge(h.path(), 1, Integer::sum) <= perFile) {
        kept.add(h);
      }
    }
    return kept;
  }
}
