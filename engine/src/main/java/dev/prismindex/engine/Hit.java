package dev.prismindex.engine;

import dev.prismindex.repository.SearchMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One located search result: everything any surface prints (human, NDJSON, MCP text and structured
 * output) and what the seam's {@code IndexSearchHit} is built from.
 *
 * @param path repository-relative, {@code /}-separated path of the file
 * @param line 1-based best line: for a literal match, the matching line (1 for a match on the path
 *     alone); else the chunk line with the most distinct query terms when the lexical engine matched
 *     the hit, else the chunk's symbol line, else its first non-blank line
 * @param endLine 1-based last line of the chunk the hit came from ({@code >= line}; {@code line} for
 *     a literal match)
 * @param column 1-based UTF-16 column of a literal match in its line; 0 when not meaningful (ranked
 *     hits, and a literal match on the path alone)
 * @param snippet the text of {@code line}, trimmed and bounded to {@link #MAX_SNIPPET_CHARS} (for a
 *     literal match in a longer line: the window of that many units around the match); never empty
 * @param score relevance in [0, 1]: LEXICAL, the BM25 score divided by the best one of the query;
 *     SEMANTIC, the cosine similarity clamped to [0, 1]; HYBRID, the fused score divided by the
 *     maximum attainable one (see {@link Fusion}); LITERAL and INDEXED_LITERAL, 1.0 for a match in
 *     the content and 0.5 for a match on the path alone
 * @param mode the mode that produced the hit
 * @param language the language detected from the file name ({@code "text"} when unknown)
 * @param symbol the name of the definition the chunk belongs to, if any (null for literal matches)
 * @param lexical how the lexical engine ranked the hit, if it contributed
 * @param semantic how the semantic engine ranked the hit, if it contributed
 * @param literal the rank of a literal match in path, line order and its score, for literal answers
 */
public record Hit(
    String path,
    int line,
    int endLine,
    int column,
    String snippet,
    double score,
    SearchMode mode,
    String language,
    @Nullable String symbol,
    @Nullable EngineScore lexical,
    @Nullable EngineScore semantic,
    @Nullable EngineScore literal) {

  /** The longest snippet a hit carries, in UTF-16 units. */
  public static final int MAX_SNIPPET_CHARS = 400;

  /**
   * Validates the hit.
   *
   * @throws IllegalArgumentException for lines out of order, a negative column, an empty snippet or
   *     a score outside [0, 1]
   */
  public Hit {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(snippet, "snippet");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(language, "language");
    if (line < 1 || endLine < line) {
      throw new IllegalArgumentException("invalid lines " + line + ".." + endLine);
    }
    if (column < 0) {
      throw new IllegalArgumentException("column must be >= 0: " + column);
    }
    if (snippet.isEmpty()) {
      throw new IllegalArgumentException("snippet must not be empty");
    }
    if (!(score >= 0.0 && score <= 1.0)) {
      throw new IllegalArgumentException("score must be in [0,1]: " + score);
    }
  }

  /** This hit with another score. */
  public Hit withScore(double newScore) {
    return new Hit(path, line, endLine, column, snippet, newScore, mode, language, symbol, lexical,
        semantic, literal);
  }
}
