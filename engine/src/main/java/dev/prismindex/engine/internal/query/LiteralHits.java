package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.internal.search.LiteralMatch;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.walk.Languages;
import dev.prismindex.repository.SearchMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Literal matches as {@link Hit}s: the one place of the literal score rule ({@link #score}) and
 * of the snippet window centred on the match.
 */
public final class LiteralHits {

  private LiteralHits() {}

  /** How a hit's snippet is cut from its match's text. */
  public enum Snippet {
    /**
     * The line trimmed and cut to {@link Hit#MAX_SNIPPET_CHARS} around the match (what
     * {@code CodeSearch} answers).
     */
    CENTRED,
    /** The match's text as the literal searcher bounded it (what the seam serves, cut there). */
    TEXT
  }

  /** The score of a literal match: 1.0 in the content, 0.5 on the path alone. */
  private static double score(LiteralMatch m) {
    return m.pathOnly() ? 0.5 : 1.0;
  }

  /**
   * The hits of {@code r}, in its order, each ranked by its position; with {@code context}, each
   * carries its match's context lines ({@link Hit#context()}).
   */
  public static List<Hit> hits(LiteralResult r, String query, SearchMode mode, Snippet snippet,
      boolean context) {
    List<Hit> out = new ArrayList<>(r.matches().size());
    int rank = 0;
    for (LiteralMatch m : r.matches()) {
      out.add(hit(m, query, mode, snippet, context, ++rank));
    }
    return out;
  }

  /**
   * The hit of one match ranked {@code rank} (its position in path, line order, from 1); with
   * {@code context}, it carries the match's context lines ({@link Hit#context()}).
   */
  public static Hit hit(LiteralMatch m, String query, SearchMode mode, Snippet snippet,
      boolean context, int rank) {
    double score = score(m);
    String text = snippet == Snippet.CENTRED ? centred(m, query) : m.text();
    Hit.Context lines = null;
    if (context) {
      String own = m.pathOnly() && m.text().equals(m.path()) ? "" : m.text().stripTrailing();
      lines = new Hit.Context(m.before(),
          own.length() > Hit.MAX_SNIPPET_CHARS || m.textStart() > 0 ? text : own, m.after());
    }
    return new Hit(m.path(), m.line(), m.line(), m.column(), text, score, mode,
        Languages.detect(m.path()), null, null, null, new EngineScore(rank, score), lines,
        m.spans(), null);
  }

  /**
   * The matching line (or the searcher's window of a long one) trimmed and cut to
   * {@link Hit#MAX_SNIPPET_CHARS} around the match; the query itself when the line is blank after
   * trimming (a query of spaces).
   */
  private static String centred(LiteralMatch m, String query) {
    String text = m.text();
    int from = 0;
    int to = text.length();
    if (to > Hit.MAX_SNIPPET_CHARS && m.column() > 0) {
      int col = Math.max(0, m.column() - 1 - m.textStart());
      from = Math.max(0, Math.min(col - Hit.MAX_SNIPPET_CHARS / 4, to - Hit.MAX_SNIPPET_CHARS));
      to = from + Hit.MAX_SNIPPET_CHARS;
    } else if (to > Hit.MAX_SNIPPET_CHARS) {
      to = Hit.MAX_SNIPPET_CHARS;
    }
    if (from > 0 && Character.isLowSurrogate(text.charAt(from))) {
      from++;
    }
    if (to < text.length() && Character.isHighSurrogate(text.charAt(to - 1))) {
      to--;
    }
    String s = text.substring(from, to).strip();
    return s.isEmpty() ? (query.strip().isEmpty() ? query : query.strip()) : s;
  }
}
