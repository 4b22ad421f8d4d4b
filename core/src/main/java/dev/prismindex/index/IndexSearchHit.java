package dev.prismindex.index;

import org.jspecify.annotations.Nullable;

/**
 * One hit as a backend reports it. Untrusted: nothing is checked here; the composite validates every
 * field before a hit is served (a relative path inside the repository and the requested scope, a score
 * in [0, 1], {@code 1 <= line <= endLine} or 0 for unknown, a snippet cut to {@code maxSnippetBytes}).
 *
 * @param path repository-relative, {@code /}-separated path
 * @param score relevance in [0, 1]
 * @param snippet the matching text (for example the best line of the match)
 * @param line 1-based first line of the hit, or 0 when unknown
 * @param endLine 1-based last line of the hit ({@code >= line}), or 0 when unknown
 * @param column 1-based UTF-16 column, or 0 when unknown
 */
public record IndexSearchHit(
    @Nullable String path, double score, @Nullable String snippet, int line, int endLine,
    int column) {

  /** A hit without location. */
  public static IndexSearchHit of(String path, double score, String snippet) {
    return new IndexSearchHit(path, score, snippet, 0, 0, 0);
  }
}
