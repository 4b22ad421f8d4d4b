package dev.prismindex.engine.search;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.analysis.CodeAnalyzer;
import dev.prismindex.engine.store.FileEntry;
import dev.prismindex.engine.store.IndexStore;
import dev.prismindex.engine.store.Schema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.jspecify.annotations.Nullable;

/**
 * BM25 search over CHUNK documents. The query text is analyzed with {@link CodeAnalyzer} (never
 * parsed as syntax) into at most {@value #MAX_TERMS} distinct terms; each term is a SHOULD clause on
 * {@code body} (boost 1), {@code symbol} (boost {@value #SYMBOL_BOOST}: definitions first) and
 * {@code path_text} (boost {@value #PATH_BOOST}).
 *
 * <p>Every hit is checked against the manifest before it is returned ({@link FileView}): a fresh
 * file gives the best line inside the chunk (the most distinct query terms; ties go to the symbol
 * line, then the earliest); a changed file's hit is re-located to the nearest line carrying query
 * terms within {@value #RELOCATE_WINDOW} lines of the old chunk, or dropped; a deleted file's hit is
 * dropped. Scores are divided by the best raw score among the returned hits, so the top hit scores
 * 1.0 and every score lies in [0, 1]; the raw BM25 score and rank are kept in
 * {@link Hit#lexical()}.
 */
public final class LexicalSearcher {

  public static final int MAX_TERMS = 64;
  public static final float SYMBOL_BOOST = 4f;
  public static final float PATH_BOOST = 1.5f;
  public static final int RELOCATE_WINDOW = 60;

  private final Path root;
  private final CodeAnalyzer analyzer;
  private final long maxFileBytes;

  public LexicalSearcher(Path root, CodeAnalyzer analyzer, long maxFileBytes) {
    this.root = root;
    this.analyzer = analyzer;
    this.maxFileBytes = maxFileBytes;
  }

  /** Builds the query for {@code text}, or null when it has no terms. */
  public @Nullable Query query(String text, @Nullable String scope) {
    Set<String> terms = analyzer.terms(text, MAX_TERMS);
    if (terms.isEmpty()) {
      return null;
    }
    BooleanQuery.Builder should = new BooleanQuery.Builder();
    for (String t : terms) {
      should.add(new TermQuery(new Term(Schema.BODY, t)), BooleanClause.Occur.SHOULD);
      should.add(new BoostQuery(new TermQuery(new Term(Schema.SYMBOL, t)), SYMBOL_BOOST),
          BooleanClause.Occur.SHOULD);
      should.add(new BoostQuery(new TermQuery(new Term(Schema.PATH_TEXT, t)), PATH_BOOST),
          BooleanClause.Occur.SHOULD);
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    b.add(should.build(), BooleanClause.Occur.MUST);
    b.add(new TermQuery(new Term(Schema.TYPE, Schema.TYPE_CHUNK)), BooleanClause.Occur.FILTER);
    if (scope != null) {
      BooleanQuery.Builder s = new BooleanQuery.Builder();
      s.add(new TermQuery(new Term(Schema.PATH, scope)), BooleanClause.Occur.SHOULD);
      s.add(new PrefixQuery(new Term(Schema.PATH, scope + "/")), BooleanClause.Occur.SHOULD);
      b.add(s.build(), BooleanClause.Occur.FILTER);
    }
    return b.build();
  }

  /** Runs a lexical search; see the class comment. */
  public List<Hit> search(IndexSearcher searcher, String text, int limit, @Nullable String scope)
      throws IOException {
    Query q = query(text, scope);
    if (q == null) {
      return List.of();
    }
    Set<String> terms = analyzer.terms(text, MAX_TERMS);
    TopDocs top = searcher.search(q, Math.min(limit * 2 + 10, 2000));
    Map<String, FileView> views = new HashMap<>();
    List<Hit> hits = new ArrayList<>();
    double best = 0;
    int rank = 0;
    for (ScoreDoc sd : top.scoreDocs) {
      rank++;
      if (hits.size() == limit) {
        break;
      }
      Document d = searcher.storedFields().document(sd.doc);
      String path = d.get(Schema.PATH);
      FileView view = views.get(path);
      if (view == null) {
        FileEntry entry = IndexStore.lookup(searcher, path);
        view = FileView.load(root, path, entry, maxFileBytes);
        views.put(path, view);
      }
      if (view.state() == FileView.State.GONE || view.lines() == null) {
        continue;
      }
      int start = d.getField(Schema.START_LINE).numericValue().intValue();
      int end = d.getField(Schema.END_LINE).numericValue().intValue();
      List<int[]> symbolLines = new ArrayList<>();
      List<String> symbolNames = new ArrayList<>();
      for (IndexableField f : d.getFields(Schema.SYMBOLS)) {
        String v = f.stringValue();
        int colon = v.indexOf(':');
        symbolLines.add(new int[] {Integer.parseInt(v.substring(0, colon))});
        symbolNames.add(v.substring(colon + 1));
      }
      List<String> lines = view.lines();
      int line;
      int endLine;
      if (view.state() == FileView.State.FRESH && end <= lines.size()) {
        int symbolLine = symbolLines.isEmpty() ? 0 : symbolLines.get(0)[0];
        line = bestLine(lines, start, end, terms, symbolLine);
        endLine = end;
      } else {
        line = relocate(lines, start, end, terms);
        if (line == 0) {
          continue;
        }
        endLine = line;
      }
      String snippet = snippet(lines, line, start, Math.min(end, lines.size()));
      if (snippet == null) {
        snippet = path;
      }
      String symbol = null;
      for (int i = 0; i < symbolNames.size(); i++) {
        if (symbol == null || symbolLines.get(i)[0] <= line) {
          symbol = symbolNames.get(i);
        }
      }
      if (hits.isEmpty()) {
        best = sd.score;
      }
      double score = best > 0 ? Math.min(1.0, Math.max(0.0, sd.score / best)) : 0.0;
      hits.add(new Hit(path, line, Math.max(line, endLine), snippet, score, d.get(Schema.LANGUAGE),
          symbol, new EngineScore(rank, sd.score), null));
    }
    return hits;
  }

  private int matchCount(String line, Set<String> terms) {
    if (line.isBlank()) {
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

  /** The trimmed, bounded text of {@code line}, or of the nearest non-blank line of the range. */
  static @Nullable String snippet(List<String> lines, int line, int start, int end) {
    if (line >= 1 && line <= lines.size() && !lines.get(line - 1).isBlank()) {
      return bound(lines.get(line - 1));
    }
    for (int d = 1; d <= Math.max(line - start, end - line); d++) {
      for (int ln : new int[] {line - d, line + d}) {
        if (ln >= Math.max(1, start) && ln <= Math.min(end, lines.size())
            && !lines.get(ln - 1).isBlank()) {
          return bound(lines.get(ln - 1));
        }
      }
    }
    return null;
  }

  static String bound(String line) {
    String s = line.strip();
    if (s.length() > Hit.MAX_SNIPPET_CHARS) {
      int cut = Hit.MAX_SNIPPET_CHARS;
      if (Character.isHighSurrogate(s.charAt(cut - 1))) {
        cut--;
      }
      s = s.substring(0, cut);
    }
    return s;
  }
}
