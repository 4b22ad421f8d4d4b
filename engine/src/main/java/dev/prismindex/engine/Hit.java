package dev.prismindex.engine;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One located search result.
 *
 * @param path repository-relative, {@code /}-separated path of the file
 * @param line 1-based best line: the chunk line with the most distinct query terms when the lexical
 *     engine matched the hit, else the chunk's symbol line, else its first non-blank line
 * @param endLine 1-based last line of the chunk the hit came from ({@code >= line})
 * @param snippet the text of {@code line}, trimmed and bounded to {@link #MAX_SNIPPET_CHARS}; never empty
 * @param score relevance in [0, 1]: LEXICAL, the BM25 score divided by the best one of the query;
 *     SEMANTIC, the cosine similarity clamped to [0, 1]; HYBRID, the fused score divided by the
 *     maximum attainable one (see {@link Fusion})
 * @param language the language detected from the file name ({@code "text"} when unknown)
 * @param symbol the name of the definition the chunk belongs to, if any
 * @param lexical how the lexical engine ranked the hit, if it contributed
 * @param semantic how the semantic engine ranked the hit, if it contributed
 */
public record Hit(
    String path,
    int line,
    int endLine,
    String snippet,
    double score,
    String language,
    @Nullable String symbol,
    @Nullable EngineScore lexical,
    @Nullable EngineScore semantic) {

  /** The longest snippet a hit carries, in UTF-16 units. */
  public static final int MAX_SNIPPET_CHARS = 400;

  public Hit {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(snippet, "snippet");
    Objects.requireNonNull(language, "language");
    if (line < 1 || endLine < line) {
      throw new IllegalArgumentException("invalid lines " + line + ".." + endLine);
    }
    if (snippet.isEmpty()) {
      throw new IllegalArgumentException("snippet must not be empty");
    }
    if (!(score >= 0.0 && score <= 1.0)) {
      throw new IllegalArgumentException("score must be in [0,1]: " + score);
    }
  }
}
