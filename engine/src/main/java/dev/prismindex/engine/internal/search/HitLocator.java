package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.Manifests;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.search.IndexSearcher;
import org.jspecify.annotations.Nullable;

/**
 * Turns ranked chunks into located {@link Hit}s for one query, checking each file against the
 * manifest first ({@link FileView}, read once per file and query).
 *
 * <p>Fresh file: the best line of the chunk is the line with the most distinct query terms (ties:
 * the symbol line, then the earliest); with no query terms (a hit only the semantic engine found)
 * it is the chunk's symbol line when that lies inside the chunk, else its first non-blank line.
 * Changed file: the hit is re-located to the nearest line, within {@value #RELOCATE_WINDOW} lines
 * of the old chunk, carrying the most query terms (for a semantic-only hit: the terms of its
 * symbol's name), or dropped. Deleted file: dropped.
 */
public final class HitLocator {

  public static final int RELOCATE_WINDOW = 60;

  private final Path root;
  private final CodeAnalyzer analyzer;
  private final long maxFileBytes;
  private final IndexSearcher searcher;
  private final SearchMode mode;
  private final Map<String, FileView> views = new HashMap<>();
  private final Map<Integer, ChunkDoc> chunks = new HashMap<>();

  /** A locator for one query of {@code mode} (the mode its hits carry). */
  public HitLocator(Path root, CodeAnalyzer analyzer, long maxFileBytes, IndexSearcher searcher,
      SearchMode mode) {
    this.root = root;
    this.mode = mode;
    this.analyzer = analyzer;
    this.maxFileBytes = maxFileBytes;
    this.searcher = searcher;
  }

  /** The stored fields of the chunk document {@code doc} (read once per query). */
  public ChunkDoc chunk(int doc) throws IOException {
    ChunkDoc c = chunks.get(doc);
    if (c == null) {
      c = ChunkDoc.read(searcher, doc);
      chunks.put(doc, c);
    }
    return c;
  }

  /**
   * The located hit, or null when the file is gone or the chunk cannot be re-located.
   *
   * @param terms the query's terms when the lexical engine matched the chunk, else empty
   */
  public @Nullable Hit locate(ChunkDoc c, Set<String> terms, double score,
      @Nullable EngineScore lexical, @Nullable EngineScore semantic) throws IOException {
    return locate(c, terms, 0, score, lexical, semantic);
  }

  /**
   * {@link #locate(ChunkDoc, Set, double, EngineScore, EngineScore)} reporting {@code line} when
   * the file is fresh and {@code line} lies inside the chunk (0: no such line).
   */
  public @Nullable Hit locate(ChunkDoc c, Set<String> terms, int preferredLine, double score,
      @Nullable EngineScore lexical, @Nullable EngineScore semantic) throws IOException {
    FileView view = view(c.path());
    List<String> lines = view.lines();
    if (view.state() == FileView.State.GONE || lines == null) {
      return null;
    }
    int line;
    int endLine;
    if (view.state() == FileView.State.FRESH && c.end() <= lines.size()) {
      line = preferredLine >= c.start() && preferredLine <= c.end() ? preferredLine
          : bestLine(lines, c.start(), c.end(), terms, c.symbolLine());
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
    return new Hit(c.path(), line, Math.max(line, endLine), 0, snippet, score, mode, c.language(),
        symbol, lexical, semantic, null);
  }

  private FileView view(String path) throws IOException {
    FileView view = views.get(path);
    if (view == null) {
      FileEntry entry = Manifests.lookup(searcher, path);
      view = FileView.load(root, path, entry, maxFileBytes);
      views.put(path, view);
    }
    return view;
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
    int bestLine = 0;
    int bestCount = -1;
    int symbolCount = -1;
    for (int ln = start; ln <= end; ln++) {
      int c = matchCount(lines.get(ln - 1), terms);
      if (ln == symbolLine) {
        symbolCount = c;
      }
      if (c > bestCount) {
        bestCount = c;
        bestLine = ln;
      }
    }
    if (bestCount <= 0) {
      if (symbolLine >= start && symbolLine <= end) {
        return symbolLine;
      }
      for (int ln = start; ln <= end; ln++) {
        if (!lines.get(ln - 1).isBlank()) {
          return ln;
        }
      }
      return start;
    }
    return symbolCount == bestCount ? symbolLine : bestLine;
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
