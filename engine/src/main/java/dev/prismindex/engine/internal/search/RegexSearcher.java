package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.store.GramPostings;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.internal.regex.Node;
import dev.prismindex.internal.regex.RegexParser;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.MatchSpan;
import dev.prismindex.repository.RegexPattern;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.RepositoryLimits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;
import org.jspecify.annotations.Nullable;

/**
 * Regular-expression search served from the gram index, the regex counterpart of {@link
 * LiteralSearcher}: the pattern's syntax tree (core's, the tree the matcher runs) is planned into a
 * {@link GramQuery} ({@link RegexPlanner}, codesearch's analysis), the FILE documents satisfying it
 * are the candidates, and each candidate is read from the working tree (the literal searcher's
 * read: no link followed, the size cap, the binary sniff) and matched line by line with core's {@link
 * RegexPattern}, so the answers equal a scan of the indexed files with ripgrep's semantics. A
 * pattern whose plan requires no gram reads every indexed file the filter selects (the answer says
 * so: {@link Candidates#planned()}).
 */
public final class RegexSearcher {

  /** The most grams an AND of the plan intersects (its rarest ones); more add little. */
  static final int MAX_AND_GRAMS = 16;

  private final LiteralSearcher reader;

  public RegexSearcher(LiteralSearcher reader) {
    this.reader = reader;
  }

  /**
   * Compiles {@code pattern} before the index is read (so a bad pattern is never mistaken for a
   * damaged index).
   *
   * @throws IllegalArgumentException for a pattern that does not parse, or is over the pattern
   *     limit
   */
  public static RegexPattern compile(String pattern, boolean caseSensitive, boolean wholeWords) {
    try {
      return RegexPattern.compile(pattern, caseSensitive ? RegexPattern.CaseMode.SENSITIVE
          : RegexPattern.CaseMode.INSENSITIVE, wholeWords,
          RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES);
    } catch (RepositoryException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The candidate paths of a regex search and how they were chosen.
   *
   * @param paths the candidates, in {@link String#compareTo} order
   * @param planned whether the gram index narrowed them down (false: the pattern requires no
   *     gram, so every indexed file the filter selects is read)
   */
  public record Candidates(List<String> paths, boolean planned) {}

  /** The plan of {@code pattern} over the gram index, for tests and diagnostics. */
  static GramQuery plan(RegexPattern pattern) {
    Node tree = RegexParser.parse(pattern.pattern(), pattern.caseInsensitive());
    return RegexPlanner.plan(tree);
  }

  /** The files that can hold a match of {@code pattern}, among those {@code files} selects. */
  public Candidates candidates(IndexSearcher searcher, RegexPattern pattern, FileMatcher files)
      throws IOException {
    GramQuery plan = plan(pattern);
    if (plan.op == GramQuery.Op.NONE) {
      return new Candidates(List.of(), true);
    }
    IndexReader reader = searcher.getIndexReader();
    Map<String, Integer> df = new HashMap<>();
    List<GramPostings> postings = new ArrayList<>();
    for (LeafReaderContext leaf : reader.leaves()) {
      postings.add(GramPostings.of(leaf.reader()));
    }
    Weight allFiles = searcher.createWeight(
        new TermQuery(new Term(Schema.TYPE, Schema.TYPE_FILE)), ScoreMode.COMPLETE_NO_SCORES, 1f);
    List<String> paths = new ArrayList<>();
    for (int l = 0; l < reader.leaves().size(); l++) {
      LeafReaderContext leaf = reader.leaves().get(l);
      GramPostings p = postings.get(l);
      // A segment without a gram index (written before format 10) is read whole: still sound.
      FixedBitSet docs = p == null || plan.op == GramQuery.Op.ALL ? null
          : evaluate(plan, p, leaf.reader().maxDoc(), postings, df);
      if (docs != null && docs.cardinality() == 0) {
        continue;
      }
      Scorer scorer = allFiles.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      SortedDocValues dv = leaf.reader().getSortedDocValues(Schema.PATH_SORT);
      DocIdSetIterator it = scorer.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        if ((docs != null && !docs.get(doc)) || (live != null && !live.get(doc)) || dv == null
            || !dv.advanceExact(doc)) {
          continue;
        }
        String path = dv.lookupOrd(dv.ordValue()).utf8ToString();
        if (files.test(path)) {
          paths.add(path);
        }
      }
    }
    paths.sort(null);
    return new Candidates(paths, plan.op != GramQuery.Op.ALL);
  }

  /**
   * The documents of one segment satisfying {@code q}, or null for all of them. An AND intersects
   * its {@value #MAX_AND_GRAMS} rarest grams (by document frequency over the whole index): fewer
   * conditions only let more files through.
   */
  private static @Nullable FixedBitSet evaluate(GramQuery q, GramPostings postings, int maxDoc,
      List<GramPostings> all, Map<String, Integer> df) throws IOException {
    if (q.op == GramQuery.Op.ALL) {
      return null;
    }
    if (q.op == GramQuery.Op.NONE) {
      return new FixedBitSet(Math.max(1, maxDoc));
    }
    if (q.op == GramQuery.Op.OR) {
      FixedBitSet out = new FixedBitSet(Math.max(1, maxDoc));
      for (String g : q.grams) {
        DocIdSetIterator docs = postings.docs(GramSet.pack(g));
        if (docs != null) {
          out.or(docs);
        }
      }
      for (GramQuery sub : q.subs) {
        FixedBitSet s = evaluate(sub, postings, maxDoc, all, df);
        if (s == null) {
          return null;
        }
        out.or(s);
      }
      return out;
    }
    FixedBitSet out = null;
    List<String> grams = new ArrayList<>(q.grams);
    if (grams.size() > MAX_AND_GRAMS) {
      for (String g : grams) {
        if (!df.containsKey(g)) {
          int n = 0;
          for (GramPostings p : all) {
            n += p == null ? 0 : p.docFreq(GramSet.pack(g));
          }
          df.put(g, n);
        }
      }
      grams.sort((a, b) -> Integer.compare(df.get(a), df.get(b)));
      grams = grams.subList(0, MAX_AND_GRAMS);
    }
    for (String g : grams) {
      DocIdSetIterator docs = postings.docs(GramSet.pack(g));
      if (docs == null) {
        return new FixedBitSet(Math.max(1, maxDoc));
      }
      FixedBitSet bits = new FixedBitSet(Math.max(1, maxDoc));
      bits.or(docs);
      if (out == null) {
        out = bits;
      } else {
        out.and(bits);
      }
    }
    for (GramQuery sub : q.subs) {
      FixedBitSet s = evaluate(sub, postings, maxDoc, all, df);
      if (s == null) {
        continue;
      }
      if (out == null) {
        out = s;
      } else {
        out.and(s);
      }
    }
    return out;
  }

  /**
   * The matches of {@code pattern} in the current content of {@code path} (one per matching line,
   * with every match's span), with up to {@code before} and {@code after} lines of context; none
   * when the file is gone or cannot be read as text now (then counted in {@code notSearched}).
   */
  public List<LiteralMatch> verify(String path, RegexPattern pattern, RegexPattern.Matcher matcher,
      int before, int after, Map<String, Integer> notSearched) {
    byte[] content = reader.read(path, notSearched);
    if (content == null) {
      return List.of();
    }
    String text = RegexPattern.decode(content);
    List<LiteralMatch> out = new ArrayList<>();
    matcher.forEachMatchingLine(text, (line, start, end, spans, count) -> {
      String readable = RegexPattern.readable(text.substring(start, end));
      List<MatchSpan> list = new ArrayList<>(count / 2);
      for (int i = 0; i < count; i += 2) {
        list.add(MatchSpan.in(readable, spans[i] - start, spans[i + 1] - start));
      }
      int col = list.get(0).column();
      out.add(new LiteralMatch(path, line, col,
          LiteralPattern.window(readable, col, LiteralSearcher.MAX_TEXT_BYTES),
          LiteralPattern.windowStart(readable, col, LiteralSearcher.MAX_TEXT_BYTES), List.of(),
          List.of(), list));
      return true;
    });
    if ((before > 0 || after > 0) && !out.isEmpty()) {
      List<String> lines = new ArrayList<>();
      RegexPattern.forEachLine(content, (n, line, bytes) -> lines.add(RegexPattern.readable(line)));
      out.replaceAll(m -> m.withContext(lines, before, after));
    }
    return out;
  }
}
