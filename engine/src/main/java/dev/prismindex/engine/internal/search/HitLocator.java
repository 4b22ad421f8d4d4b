package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Turns ranked chunks into located {@link Hit}s for one query, checking each file against the
 * manifest first ({@link FileView}, read once per file and query).
 *
 * <p>Fresh file, the best line of the chunk: (1) a line that holds a <em>literal fragment</em> of
 * the query (below) longer than any the definition's header line holds, the longest first (ties:
 * the earliest); (2) else the header line of the chunk's definition (the line of its name: the
 * {@code fn}, {@code def} or method signature, not its doc comment or annotations), also when the
 * chunk is a piece of the definition that does not hold it (its doc comment, a window of a long
 * body, the lines of a type between its members): a definition is found at its declaration; (3)
 * else (a plain window, outside any definition) the line with the most distinct query terms (ties:
 * the earliest); with no query terms (a hit only the semantic engine found), the first non-blank
 * line. So a query that describes a method reports the method's header, and a query that quotes
 * code reports the line with that code. In a definition's chunk only the lines from its header on
 * are searched for fragments (its doc comment is not: a query quoting a doc sentence, or a doc
 * example, reports the definition); a window of the body without the header is searched whole.
 *
 * <p>A literal fragment is found verbatim on a line, case-insensitively, with runs of white space
 * counting as one space: a run of consecutive query words of which one has at least four letters
 * or digits, and that has three words or more, or two words one of which holds a character other
 * than a letter or digit ({@code return total;}); or a single query word that is code: an
 * identifier of at least four
 * characters with an {@code _}, a digit or an inner capital ({@code getEntryCount},
 * {@code MAX_LINES}; found as a whole word), or a word of at least four characters with
 * punctuation ({@code map.get(key)}). A word loses quotes or backticks around it and one trailing
 * {@code . , : ! ?} after a letter or digit.
 *
 * <p>Changed file: the hit is re-located to the nearest line, within {@value #RELOCATE_WINDOW} lines
 * of the old chunk, carrying the most query terms (for a semantic-only hit: the terms of its
 * symbol's name), or dropped. Deleted file: dropped.
 */
public final class HitLocator {

  public static final int RELOCATE_WINDOW = 60;

  private final FileSource files;
  private final CodeAnalyzer analyzer;
  private final StoreReader index;
  private final SearchMode mode;
  private final Map<Integer, ChunkDoc> chunks = new HashMap<>();
  private final LiteralFragments fragments;
  private final int contextBefore;
  private final int contextAfter;

  /**
   * A locator of the chunks of {@code index}, their files read through {@code files}, whose hits
   * carry {@code contextBefore} and {@code contextAfter} lines around their line ({@link
   * Hit#context()}, from the lines the hit was located in), when either is positive.
   */
  public HitLocator(FileSource files, CodeAnalyzer analyzer, StoreReader index, SearchMode mode,
      String query, int contextBefore, int contextAfter) {
    this.contextBefore = contextBefore;
    this.contextAfter = contextAfter;
    this.files = files;
    this.fragments = LiteralFragments.of(query);
    this.mode = mode;
    this.analyzer = analyzer;
    this.index = index;
  }

  /** The stored fields of the chunk document {@code doc} (read once per query). */
  public ChunkDoc chunk(int doc) throws IOException {
    ChunkDoc c = chunks.get(doc);
    if (c == null) {
      c = index.chunk(doc);
      chunks.put(doc, c);
    }
    return c;
  }

  /** The lines of the chunk {@code doc}'s file when it is as indexed (fresh), else null. */
  public @Nullable List<String> freshLines(int doc) throws IOException {
    ChunkDoc c = chunk(doc);
    FileView view = files.view(doc, c.path());
    return view.state() == FileView.State.FRESH ? view.lines() : null;
  }

  /**
   * The located hit of the chunk {@code chunk}, or null when the file is gone or the chunk cannot
   * be re-located.
   *
   * @param terms the query's terms when the lexical engine matched the chunk, else empty
   */
  public @Nullable Hit locate(int chunk, Set<String> terms, double score,
      @Nullable EngineScore lexical, @Nullable EngineScore semantic) throws IOException {
    return locate(chunk, terms, 0, score, lexical, semantic);
  }

  /**
   * {@link #locate(int, Set, double, EngineScore, EngineScore)} reporting {@code line} when the
   * file is fresh and {@code line} lies inside the chunk (0: no such line).
   */
  public @Nullable Hit locate(int chunk, Set<String> terms, int preferredLine, double score,
      @Nullable EngineScore lexical, @Nullable EngineScore semantic) throws IOException {
    ChunkDoc c = chunk(chunk);
    FileView view = files.view(chunk, c.path());
    List<String> lines = view.lines();
    if (view.state() == FileView.State.GONE || lines == null) {
      return null;
    }
    int line;
    int endLine;
    if (view.state() == FileView.State.FRESH && c.end() <= lines.size()) {
      line = preferredLine >= 1 && preferredLine <= lines.size() && isSymbolLine(c, preferredLine)
          ? preferredLine : bestLine(lines, c.start(), c.end(), terms, c.symbolLine());
      endLine = c.end();
    } else {
      Set<String> anchor = terms;
      if (anchor.isEmpty() && !c.symbolNames().isEmpty()) {
        anchor = analyzer.terms(c.symbolNames().get(0), LexicalSearcher.MAX_TERMS);
      }
      line = anchor.isEmpty() ? 0 : relocate(lines, c.start(), c.end(), anchor);
      if (line == 0) {
        return null;
      }
      endLine = line;
    }
    String snippet =
        LexicalSearcher.snippet(lines, line, c.start(), Math.min(c.end(), lines.size()));
    if (snippet == null) {
      snippet = c.path();
    }
    String symbol = null;
    for (int i = 0; i < c.symbolNames().size(); i++) {
      if (symbol == null || c.symbolLines()[i] <= line) {
        symbol = c.symbolNames().get(i);
      }
    }
    Hit.Context context = contextBefore > 0 || contextAfter > 0
        ? Hit.Context.of(lines, line, contextBefore, contextAfter, snippet) : null;
    return new Hit(c.path(), line, Math.max(line, endLine), 0, snippet, score, mode, c.language(),
        symbol, lexical, semantic, null, context, List.of(), files.repo(chunk));
  }

  private int matchCount(String line, Set<String> terms) {
    if (line.isBlank() || terms.isEmpty()) {
      return 0;
    }
    int count = 0;
    for (String t : analyzer.terms(line, 512)) {
      if (terms.contains(t)) {
        count++;
      }
    }
    return count;
  }

  int bestLine(List<String> lines, int start, int end, Set<String> terms, int symbolLine) {
    boolean header = symbolLine >= start && symbolLine <= end;
    // The declaration of the chunk's definition, in the chunk or not (a doc comment, a window).
    boolean declared = symbolLine >= 1 && symbolLine <= lines.size();
    // Fragments are looked for from the header down: never in the doc comment above it.
    int literal = declared && symbolLine > end ? 0
        : literalLine(lines, header ? symbolLine : start, end, declared ? symbolLine : 0);
    if (literal > 0) {
      return literal;
    }
    if (declared) {
      return symbolLine;
    }
    int bestLine = 0;
    int bestCount = 0;
    for (int ln = start; ln <= end; ln++) {
      int c = matchCount(lines.get(ln - 1), terms);
      if (c > bestCount) {
        bestCount = c;
        bestLine = ln;
      }
    }
    if (bestLine > 0) {
      return bestLine;
    }
    for (int ln = start; ln <= end; ln++) {
      if (!lines.get(ln - 1).isBlank()) {
        return ln;
      }
    }
    return start;
  }

  /** Whether {@code line} is the header line of one of the chunk's definitions. */
  private static boolean isSymbolLine(ChunkDoc c, int line) {
    for (int l : c.symbolLines()) {
      if (l == line) {
        return true;
      }
    }
    return false;
  }

  /**
   * The line of {@code from..to} holding the longest literal fragment, or 0 when none does or when
   * the {@code header} line (0: none; it may lie outside the range) holds one at least as long.
   */
  private int literalLine(List<String> lines, int from, int to, int header) {
    if (fragments.none()) {
      return 0;
    }
    int bestLength = 0;
    int bestLine = 0;
    int headerLength = header > 0 ? fragments.longestIn(lines.get(header - 1)) : 0;
    for (int ln = from; ln <= to; ln++) {
      int length = fragments.longestIn(lines.get(ln - 1));
      if (length > bestLength) {
        bestLength = length;
        bestLine = ln;
      }
    }
    return bestLength == 0 || headerLength >= bestLength ? 0 : bestLine;
  }

  /** The line nearest the old chunk that carries the most query terms; 0 when none does. */
  private int relocate(List<String> lines, int start, int end, Set<String> terms) {
    int from = Math.max(1, start - RELOCATE_WINDOW);
    int to = Math.min(lines.size(), end + RELOCATE_WINDOW);
    int bestLine = 0;
    int bestCount = 0;
    int bestDistance = Integer.MAX_VALUE;
    for (int ln = from; ln <= to; ln++) {
      int c = matchCount(lines.get(ln - 1), terms);
      if (c == 0) {
        continue;
      }
      int distance = ln < start ? start - ln : ln > end ? ln - end : 0;
      if (c > bestCount || (c == bestCount && distance < bestDistance)) {
        bestCount = c;
        bestLine = ln;
        bestDistance = distance;
      }
    }
    return bestLine;
  }
}
