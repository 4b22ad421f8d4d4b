package dev.prismindex.engine.internal.search;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Exact literal matches in path, line order, and what was not searched.
 *
 * @param matches the matches, at most the requested cap
 * @param truncated whether a further match exists
 * @param notSearched files not searched, by reason (lower-case {@link
 *     dev.prismindex.engine.SkipReason} names, sorted): those the last indexing run left out of the
 *     index, plus candidates that could not be read as text at search time (unreadable, binary or
 *     oversize since); empty when every file was searched
 */
public record LiteralResult(List<LiteralMatch> matches, boolean truncated,
    Map<String, Integer> notSearched) {

  public LiteralResult {
    matches = List.copyOf(matches);
    notSearched = Collections.unmodifiableMap(new TreeMap<>(notSearched));
  }

  /** A result that searched every file. */
  public LiteralResult(List<LiteralMatch> matches, boolean truncated) {
    this(matches, truncated, Map.of());
  }

  /** This result with {@code more} added to {@link #notSearched()}. */
  public LiteralResult plusNotSearched(Map<String, Integer> more) {
    if (more.isEmpty()) {
      return this;
    }
    Map<String, Integer> sum = new TreeMap<>(notSearched);
    more.forEach((k, v) -> sum.merge(k, v, Integer::sum));
    return new LiteralResult(matches, truncated, sum);
  }
}
