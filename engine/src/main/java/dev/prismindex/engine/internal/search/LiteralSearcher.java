package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.FileFilter;
import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.analysis.Grams;
import dev.prismindex.engine.internal.codec.GramPostings;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.RepositoryException;
import dev.prismindex.repository.RepositoryLimits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.AutomatonQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConjunctionUtils;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;
import org.jspecify.annotations.Nullable;

/**
 * Exact substring search with the literal scanner's semantics, served from the n-gram postings:
 * the query's grams select candidate files (a superset of the matching files, see {@link Grams}),
 * which are then read in path order and verified line by line with core's
 * {@link LiteralPattern}, the literal scanner's own semantics (case rules, line splitting and
 * decoding, every line searched however long, first occurrence per line, 1-based UTF-16 columns),
 * so the answers equal the scanner's on the same files. Verification reads the current file, so
 * every match served is true of the working tree now. A match's text is bounded: a line over
 * {@value #MAX_TEXT_BYTES} UTF-8 bytes is cut to {@link LiteralPattern#window} around the match.
 * A candidate that can no longer be read as text (unreadable, binary, over the size cap) is counted
 * in {@link LiteralResult#notSearched()}; one that is gone is not (there is nothing to search).
 *
 * <p>Path rule: a file whose repository-relative path contains the query (same case rule) but
 * whose content does not is reported once, at line 1 with column 0, with its first line (or its
 * path, when that line is empty) as text. The scanner matches content only.
 */
public final class LiteralSearcher {

  /** The most UTF-8 bytes of a line a match holds (longer lines are cut to a window). */
  public static final int MAX_TEXT_BYTES = 4096;
  /** The most grams intersected to select candidates (the rarest ones are used). */
  public static final int MAX_QUERY_GRAMS = 16;

  private final Path root;
  private final long maxFileBytes;

  public LiteralSearcher(Path root, long maxFileBytes) {
    this.root = root;
    this.maxFileBytes = maxFileBytes;
  }

  /**
   * The pattern of {@code query}, compiled before the index is read (so a bad query is never
   * mistaken for a damaged index); null for the empty query, which matches nothing.
   *
   * @throws IllegalArgumentException when the query is over the literal pattern limit
   */
  public static @Nullable LiteralPattern compile(String query, boolean caseSensitive) {
    if (query.isEmpty()) {
      return null;
    }
    try {
      return LiteralPattern.compile(query, caseSensitive,
          RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES);
    } catch (RepositoryException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * Finds matches in path order ({@code pattern} is {@link #compile}d from {@code query}).
   *
   * @param onePerFile report only the first match of each file (what the seam serves)
   * @param maxMatches the cap; one further match is looked for to set {@code truncated}
   */
  public LiteralResult search(IndexSearcher searcher, @Nullable LiteralPattern pattern,
      String query, @Nullable String scope, int maxMatches, boolean onePerFile, AbortSignal signal)
      throws IOException {
    return search(searcher, pattern, query, FileMatcher.of(FileFilter.scope(scope)), maxMatches,
        onePerFile, 0, 0, signal);
  }

  /**
   * Finds matches in path order among the files {@code files} selects, each with up to
   * {@code before} and {@code after} lines of context ({@link LiteralMatch#before()}).
   *
   * @param onePerFile report only the first match of each file (what the seam serves)
   * @param maxMatches the cap; one further match is looked for to set {@code truncated}
   */
  public LiteralResult search(IndexSearcher searcher, @Nullable LiteralPattern pattern,
      String query, FileMatcher files, int maxMatches, boolean onePerFile, int before, int after,
      AbortSignal signal) throws IOException {
    if (pattern == null) {
      return new LiteralResult(List.of(), false);
    }
    return verify(candidates(searcher, query, pattern.caseSensitive(), files), pattern,
        maxMatches, onePerFile, before, after, signal);
  }

  /**
   * The matches of {@code pattern} in the current content of {@code candidates} (paths in
   * {@link String#compareTo} order, a superset of the files that match and that the search's
   * filter selects, from any index), with the scanner's semantics and up to {@code before} and
   * {@code after} lines of context: what {@link #search} reports once it has its candidates.
   */
  public LiteralResult verify(List<String> candidates, LiteralPattern pattern, int maxMatches,
      boolean onePerFile, int before, int after, AbortSignal signal) {
    boolean context = before > 0 || after > 0;
    List<LiteralMatch> out = new ArrayList<>();
    Map<String, Integer> notSearched = new TreeMap<>();
    boolean[] truncated = {false};
    for (String path : candidates) {
      if (signal.isAborted()) {
        return new LiteralResult(out, true, notSearched);
      }
      byte[] content = read(path, notSearched);
      if (content == null) {
        continue;
      }
      boolean[] found = {false};
      boolean[] fileDone = {false};
      String[] firstLine = {null};
      int fileStart = out.size();
      List<String> lines = context ? new ArrayList<>() : null;
      // With context, lines are kept after the cap is reached until the last match has its own.
      int[] linesWanted = {Integer.MAX_VALUE};
      LiteralPattern.forEachLine(content, (line, text, bytes) -> {
        if (lines != null) {
          lines.add(text);
          if (lines.size() >= linesWanted[0]) {
            return false;
          }
        }
        if (truncated[0] || fileDone[0]) {
          return true;
        }
        if (line == 1) {
          firstLine[0] = text;
        }
        int col = pattern.column(text);
        if (col == 0) {
          return true;
        }
        found[0] = true;
        if (out.size() == maxMatches) {
          truncated[0] = true;
          if (lines == null || out.size() == fileStart) {
            return false;
          }
          linesWanted[0] = out.get(out.size() - 1).line() + after;
          return lines.size() < linesWanted[0];
        }
        out.add(new LiteralMatch(path, line, col, LiteralPattern.window(text, col, MAX_TEXT_BYTES),
            LiteralPattern.windowStart(text, col, MAX_TEXT_BYTES)));
        if (onePerFile) {
          fileDone[0] = true;
          linesWanted[0] = line + after;
          return lines != null && lines.size() < linesWanted[0];
        }
        return true;
      });
      if (!found[0] && !truncated[0] && pattern.column(path) > 0) {
        if (out.size() == maxMatches) {
          return new LiteralResult(out, true, notSearched);
        }
        String first = firstLine[0] == null || firstLine[0].isBlank() ? path
            : LiteralPattern.window(firstLine[0], 0, MAX_TEXT_BYTES);
        out.add(new LiteralMatch(path, 1, 0, first));
      }
      if (lines != null) {
        for (int i = fileStart; i < out.size(); i++) {
          out.set(i, out.get(i).withContext(lines, before, after));
        }
      }
      if (truncated[0]) {
        return new LiteralResult(out, true, notSearched);
      }
    }
    return new LiteralResult(out, false, notSearched);
  }

  /**
   * The content of a candidate, or null: when it is gone (or no longer a regular file: not
   * counted), or cannot be read as text now (counted in {@code notSearched} by reason).
   */
  private @Nullable byte[] read(String path, Map<String, Integer> notSearched) {
    Path file = FileNames.resolve(root, path);
    if (file == null) {
      notSearched.merge("unreadable", 1, Integer::sum); // a name this JVM cannot encode
      return null;
    }
    try {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        return null;
      }
      byte[] bytes;
      try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
        bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxFileBytes + 1));
      }
      if (bytes.length > maxFileBytes) {
        notSearched.merge("oversize", 1, Integer::sum);
        return null;
      }
      if (FileReader.isBinary(bytes, bytes.length)) {
        notSearched.merge("binary", 1, Integer::sum);
        return null;
      }
      return bytes;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      notSearched.merge("unreadable", 1, Integer::sum);
      return null;
    }
  }

  /**
   * The files holding a bigram: those with an indexed gram containing it (a trigram starting or
   * ending with it, or the bigram of a two-unit line; see {@link Grams}).
   */
  private static Query containingGram(String gram) {
    Automaton contains = Operations.concatenate(List.of(Automata.makeAnyString(),
        Automata.makeString(gram), Automata.makeAnyString()));
    return new AutomatonQuery(new Term(Schema.GRAMS, gram),
        Operations.determinize(contains, Operations.DEFAULT_DETERMINIZE_WORK_LIMIT));
  }

  /**
   * Candidate paths (sorted by {@link String#compareTo}): the FILE documents holding every query
   * gram (the {@value #MAX_QUERY_GRAMS} rarest trigrams, and a gram containing each bigram), all of
   * them for a query without grams. A segment's grams are its gram index ({@link GramPostings}), or
   * in a segment written before format 10, terms of {@link Schema#GRAMS}.
   */
  private List<String> candidates(IndexSearcher searcher, String query, boolean caseSensitive,
      FileMatcher files) throws IOException {
    IndexReader reader = searcher.getIndexReader();
    List<LeafReaderContext> leaves = reader.leaves();
    List<GramPostings> postings = new ArrayList<>(leaves.size());
    boolean gramTerms = false; // a segment written before format 10
    for (LeafReaderContext leaf : leaves) {
      postings.add(GramPostings.of(leaf.reader()));
      gramTerms |= leaf.reader().getFieldInfos().fieldInfo(Schema.GRAMS) != null;
    }
    List<String> trigrams = new ArrayList<>();
    List<String> bigrams = new ArrayList<>();
    List<int[]> freq = new ArrayList<>();
    for (String g : Grams.queryGrams(query, caseSensitive)) {
      if (g.length() < Grams.N) {
        bigrams.add(g);
        continue;
      }
      int df = gramTerms ? reader.docFreq(new Term(Schema.GRAMS, g)) : 0;
      for (GramPostings p : postings) {
        df += p == null ? 0 : p.docFreq(GramSet.pack(g));
      }
      if (df == 0) {
        return List.of();
      }
      freq.add(new int[] {df, trigrams.size()});
      trigrams.add(g);
    }
    if (trigrams.size() > MAX_QUERY_GRAMS) {
      freq.sort(Comparator.comparingInt(a -> a[0]));
      List<String> rare = new ArrayList<>();
      for (int i = 0; i < MAX_QUERY_GRAMS; i++) {
        rare.add(trigrams.get(freq.get(i)[1]));
      }
      trigrams = rare;
    }
    Weight allFiles = searcher.createWeight(
        new TermQuery(new Term(Schema.TYPE, Schema.TYPE_FILE)), ScoreMode.COMPLETE_NO_SCORES, 1f);
    Weight termGrams = !gramTerms ? null : searcher.createWeight(
        searcher.rewrite(termQuery(trigrams, bigrams)), ScoreMode.COMPLETE_NO_SCORES, 1f);
    boolean anyGram = !trigrams.isEmpty() || !bigrams.isEmpty();
    List<String> paths = new ArrayList<>();
    for (int l = 0; l < leaves.size(); l++) {
      LeafReaderContext leaf = leaves.get(l);
      // A FILE document's grams are in the gram index or (written before format 10) terms; a
      // segment merged from both kinds has both.
      List<DocIdSetIterator> found = new ArrayList<>(2);
      if (!anyGram) {
        found.add(iterator(allFiles.scorer(leaf)));
      } else {
        if (termGrams != null) {
          found.add(iterator(termGrams.scorer(leaf)));
        }
        if (postings.get(l) != null) {
          found.add(fromGramIndex(postings.get(l), trigrams, bigrams));
        }
      }
      var live = leaf.reader().getLiveDocs();
      for (DocIdSetIterator it : found) {
        if (it == null) {
          continue;
        }
        SortedDocValues dv = leaf.reader().getSortedDocValues(Schema.PATH_SORT); // forward only
        for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
          if ((live != null && !live.get(doc)) || dv == null || !dv.advanceExact(doc)) {
            continue;
          }
          String path = dv.lookupOrd(dv.ordValue()).utf8ToString();
          if (files.test(path)) {
            paths.add(path);
          }
        }
      }
    }
    paths.sort(null);
    return paths;
  }

  private static @Nullable DocIdSetIterator iterator(@Nullable Scorer scorer) {
    return scorer == null ? null : scorer.iterator();
  }

  /** The documents of a segment's gram index holding every gram, or null when none can. */
  private static @Nullable DocIdSetIterator fromGramIndex(GramPostings postings,
      List<String> trigrams, List<String> bigrams) throws IOException {
    List<DocIdSetIterator> all = new ArrayList<>();
    for (String g : trigrams) {
      DocIdSetIterator docs = postings.docs(GramSet.pack(g));
      if (docs == null) {
        return null;
      }
      all.add(docs);
    }
    for (String g : bigrams) {
      all.add(postings.containing(GramSet.pack(g)));
    }
    return all.size() == 1 ? all.get(0) : ConjunctionUtils.intersectIterators(all);
  }

  /** The query of the grams as terms of {@link Schema#GRAMS}, for segments before format 10. */
  private static Query termQuery(List<String> trigrams, List<String> bigrams) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    b.add(new TermQuery(new Term(Schema.TYPE, Schema.TYPE_FILE)), BooleanClause.Occur.FILTER);
    for (String g : trigrams) {
      b.add(new TermQuery(new Term(Schema.GRAMS, g)), BooleanClause.Occur.FILTER);
    }
    for (String g : bigrams) {
      b.add(containingGram(g), BooleanClause.Occur.FILTER);
    }
    return b.build();
  }
}
