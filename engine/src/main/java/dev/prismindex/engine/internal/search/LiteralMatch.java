package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.Hit;
import dev.prismindex.repository.MatchSpan;
import java.util.ArrayList;
import java.util.List;

/**
 * One exact match: of a literal (the first occurrence in a line) or of a regular expression (every
 * match of a line, in {@code spans}).
 *
 * @param path repository-relative path
 * @param line 1-based line
 * @param column 1-based UTF-16 column of the first occurrence in the line (as the scanner reports
 *     it), or 0 for a match on the path alone
 * @param text the line (or the path, for a path match on an empty first line); a line over
 *     {@link LiteralSearcher#MAX_TEXT_BYTES} UTF-8 bytes is cut to its window around the match
 *     ({@link dev.prismindex.repository.LiteralPattern#window})
 * @param textStart the UTF-16 index in the line at which {@code text} starts (0 unless cut)
 * @param before the context lines before {@code line} ({@link Hit.Context#bound bounded}), empty
 *     unless asked for
 * @param after the context lines after {@code line}, likewise
 * @param spans where the matches lie in the whole line (the first starts at {@code column}); empty
 *     for a path-only match, and when the searcher does not say
 */
public record LiteralMatch(String path, int line, int column, String text, int textStart,
    List<String> before, List<String> after, List<MatchSpan> spans) {

  public LiteralMatch {
    before = List.copyOf(before);
    after = List.copyOf(after);
    spans = List.copyOf(spans);
  }

  /** A match with context lines and no spans. */
  public LiteralMatch(String path, int line, int column, String text, int textStart,
      List<String> before, List<String> after) {
    this(path, line, column, text, textStart, before, after, List.of());
  }

  /** A match without context lines. */
  public LiteralMatch(String path, int line, int column, String text, int textStart) {
    this(path, line, column, text, textStart, List.of(), List.of());
  }

  /** This match with {@code value} as its spans. */
  public LiteralMatch withSpans(List<MatchSpan> value) {
    return new LiteralMatch(path, line, column, text, textStart, before, after, value);
  }

  /** A match whose text is the whole line. */
  public LiteralMatch(String path, int line, int column, String text) {
    this(path, line, column, text, 0);
  }

  /** Whether this is a path-only match (the query occurs in the path, not in the content). */
  public boolean pathOnly() {
    return column == 0;
  }

  /**
   * This match with up to {@code before} and {@code after} lines of context from the lines of its
   * file ({@code lines.get(0)} is line 1; the list may end early).
   */
  LiteralMatch withContext(List<String> lines, int before, int after) {
    List<String> b = new ArrayList<>();
    for (int ln = Math.max(1, line - before); ln < line && ln <= lines.size(); ln++) {
      b.add(Hit.Context.bound(lines.get(ln - 1)));
    }
    List<String> a = new ArrayList<>();
    for (int ln = line + 1; ln <= Math.min(lines.size(), line + after); ln++) {
      a.add(Hit.Context.bound(lines.get(ln - 1)));
    }
    return new LiteralMatch(path, line, column, text, textStart, b, a, spans);
  }
}
