package dev.prismindex.engine;

import dev.prismindex.repository.MatchSpan;
import dev.prismindex.repository.SearchMode;
import java.util.List;
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
 * @param context the lines around {@code line} when the search asked for them
 *     ({@link SearchOpts#contextBefore()}, {@link SearchOpts#contextAfter()}), else null
 * @param matches the matches of an exact mode in {@code line}, where they lie (1-based UTF-16
 *     columns in the whole line, end exclusive) and their text: REGEX, every match of the line (an
 *     empty match only when it is the first); LITERAL and INDEXED_LITERAL, the first occurrence;
 *     empty for a match on the path alone and for ranked hits
 * @param repo the name of the repository the hit comes from when a {@link Workspace} answered
 *     (unique within it; {@code path} is relative to that repository's root), else null
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
    @Nullable EngineScore literal,
    @Nullable Context context,
    List<MatchSpan> matches,
    @Nullable String repo) {

  /** The longest snippet a hit carries, in UTF-16 units. */
  public static final int MAX_SNIPPET_CHARS = 400;

  /**
   * The lines around a hit, as the file holds them when the hit was located (the same read that
   * located it), each without its trailing white space and cut to {@link #MAX_SNIPPET_CHARS}
   * UTF-16 units (indentation kept). Near the start or the end of the file there are fewer.
   *
   * @param before the lines just before {@code line}, in file order (the last is {@code line - 1})
   * @param text the hit's own line, indentation kept; when the line is longer than {@link
   *     #MAX_SNIPPET_CHARS}, the hit's snippet (the window around a literal match)
   * @param after the lines just after {@code line}, in file order (the first is {@code line + 1})
   */
  public record Context(List<String> before, String text, List<String> after) {

    /** Copies the lists. */
    public Context {
      before = List.copyOf(before);
      Objects.requireNonNull(text, "text");
      after = List.copyOf(after);
    }

    /**
     * The context of line {@code line} (1-based) of {@code lines}: up to {@code before} and
     * {@code after} lines around it, each {@linkplain #bound bounded}; {@code snippet} stands for
     * the line itself when it is too long.
     */
    public static Context of(List<String> lines, int line, int before, int after,
        String snippet) {
      int index = Math.min(Math.max(line, 1), lines.size() + 1) - 1;
      List<String> b = new java.util.ArrayList<>(Math.min(before, index));
      for (int i = Math.max(0, index - before); i < index; i++) {
        b.add(bound(lines.get(i)));
      }
      List<String> a = new java.util.ArrayList<>();
      for (int i = index + 1; i < Math.min(lines.size(), index + 1 + after); i++) {
        a.add(bound(lines.get(i)));
      }
      String own = index < lines.size() ? lines.get(index).stripTrailing() : snippet;
      return new Context(b, own.length() > MAX_SNIPPET_CHARS ? snippet : own, a);
    }

    /**
     * A line as context shows it: without trailing white space, cut to {@link #MAX_SNIPPET_CHARS}
     * UTF-16 units (never between the two units of a surrogate pair).
     */
    public static String bound(String line) {
      String s = line.stripTrailing();
      if (s.length() <= MAX_SNIPPET_CHARS) {
        return s;
      }
      int cut = MAX_SNIPPET_CHARS;
      if (Character.isHighSurrogate(s.charAt(cut - 1))) {
        cut--;
      }
      return s.substring(0, cut);
    }
  }

  /**
   * A hit of one repository (no {@link #repo()}) without match spans.
   *
   * @throws IllegalArgumentException see {@link Hit#Hit}
   */
  public Hit(String path, int line, int endLine, int column, String snippet, double score,
      SearchMode mode, String language, @Nullable String symbol, @Nullable EngineScore lexical,
      @Nullable EngineScore semantic, @Nullable EngineScore literal, @Nullable Context context) {
    this(path, line, endLine, column, snippet, score, mode, language, symbol, lexical, semantic,
        literal, context, List.of(), null);
  }

  /**
   * A hit of one repository without context lines or match spans.
   *
   * @throws IllegalArgumentException see {@link Hit#Hit}
   */
  public Hit(String path, int line, int endLine, int column, String snippet, double score,
      SearchMode mode, String language, @Nullable String symbol, @Nullable EngineScore lexical,
      @Nullable EngineScore semantic, @Nullable EngineScore literal) {
    this(path, line, endLine, column, snippet, score, mode, language, symbol, lexical, semantic,
        literal, null, List.of(), null);
  }

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
    matches = List.copyOf(matches);
  }

  /** This hit with another score. */
  public Hit withScore(double newScore) {
    return new Hit(path, line, endLine, column, snippet, newScore, mode, language, symbol, lexical,
        semantic, literal, context, matches, repo);
  }

  /** This hit with {@code value} as its context lines. */
  public Hit withContext(@Nullable Context value) {
    return new Hit(path, line, endLine, column, snippet, score, mode, language, symbol, lexical,
        semantic, literal, value, matches, repo);
  }

  /** This hit as one of the repository named {@code name} in a workspace. */
  public Hit withRepo(String name) {
    return new Hit(path, line, endLine, column, snippet, score, mode, language, symbol, lexical,
        semantic, literal, context, matches, Objects.requireNonNull(name, "name"));
  }
}
