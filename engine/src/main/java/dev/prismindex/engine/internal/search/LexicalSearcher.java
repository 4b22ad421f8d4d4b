package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.StoreFields;
import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.jspecify.annotations.Nullable;

/**
 * BM25 search over CHUNK documents. The query text is analyzed with {@link CodeAnalyzer} (never
 * parsed as syntax) into at most {@value #MAX_TERMS} distinct terms; each term is a SHOULD clause on
 * {@code body} (boost 1), {@code symbol} (boost {@value #SYMBOL_BOOST}: definitions first) and
 * {@code path_text} (boost {@value #PATH_BOOST}). A query that reads as prose ({@link #isProse}: a
 * sentence such as "Gets the entries of this map") loses its {@link #STOP_WORDS} and each remaining
 * term also matches its singular form ({@code entries} or {@code entry}, the better of the two):
 * doc-comment verbs and plurals then reach identifiers ({@code getEntry}). A prose query also
 * matches its {@code CodeAnalyzer#proseTerms} stems (identifier
 * words, no stop words, Porter) on {@code prose}, the chunk text analyzed the same way (boost
 * {@value #PROSE_BOOST}): "remove each entry" meets "Removes expired entries". A definition's doc comment is
 * part of its chunk, so it counts in {@code body} and {@code prose} (a separate doc-comment field
 * was measured and dropped: on the benchmark, whose target's own doc comment is blanked, every
 * positive boost favoured neighbours with similar docs). Measured in the quality run log ({@code docs/runs/README.md}).
 *
 * <p>Every hit is checked against the manifest before it is returned ({@link HitLocator}): a fresh
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
  /** The boost of a prose query's stems on {@code prose} (the chunk text as English). */
  public static final float PROSE_BOOST = 2f;
  public static final int RELOCATE_WINDOW = HitLocator.RELOCATE_WINDOW;
  /** The fewest words a query has to read as prose ({@link #isProse}). */
  public static final int PROSE_MIN_WORDS = 4;
  /** English function words: dropped from prose queries, they only add noise to BM25. */
  public static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "of", "to", "in", "on",
      "at", "by", "for", "from", "with", "and", "or", "is", "are", "be", "been", "was", "were",
      "it", "its", "this", "that", "these", "those", "as", "into", "which", "whose", "what",
      "when", "where", "how", "does", "do", "there", "their", "them", "we", "you", "our");

  private final CodeAnalyzer analyzer;

  public LexicalSearcher(CodeAnalyzer analyzer) {
    this.analyzer = analyzer;
  }

  /**
   * The scored query of {@code text} (its terms on the ranked fields), or null when it has no
   * terms. The store restricts it to CHUNK documents and to the search's files ({@link
   * LexicalQuery#filter()}).
   */
  public @Nullable Query query(String text) {
    List<Query> parts = parts(text);
    if (parts.isEmpty()) {
      return null;
    }
    BooleanQuery.Builder should = new BooleanQuery.Builder();
    for (Query p : parts) {
      if (p instanceof BooleanQuery b) {
        for (BooleanClause c : b.clauses()) {
          should.add(c);
        }
      }
    }
    return should.build();
  }

  /**
   * The query of {@code text} in {@value #PARTS} parts, one per ranked field ({@link #BODY_PART},
   * {@link #SYMBOL_PART}, {@link #PATH_PART}, {@link #PROSE_PART}: a query that is not prose matches
   * nothing on {@code prose}), whose BM25 scores add up to {@link #query}'s; the ranker reads each
   * ({@link Candidate#parts()}). Empty when the text has no terms.
   */
  public List<Query> parts(String text) {
    Set<String> terms = terms(text);
    if (terms.isEmpty()) {
      return List.of();
    }
    boolean prose = isProse(text);
    BooleanQuery.Builder body = new BooleanQuery.Builder();
    BooleanQuery.Builder symbol = new BooleanQuery.Builder();
    BooleanQuery.Builder path = new BooleanQuery.Builder();
    BooleanQuery.Builder proseField = new BooleanQuery.Builder();
    for (String t : terms) {
      String folded = prose ? singular(t) : null;
      body.add(field(StoreFields.BODY, t, folded, 1f), BooleanClause.Occur.SHOULD);
      symbol.add(field(StoreFields.SYMBOL, t, folded, SYMBOL_BOOST), BooleanClause.Occur.SHOULD);
      path.add(field(StoreFields.PATH_TEXT, t, folded, PATH_BOOST), BooleanClause.Occur.SHOULD);
    }
    if (prose) {
      for (String stem : analyzer.proseTerms(text, MAX_TERMS)) {
        proseField.add(field(StoreFields.PROSE, stem, null, PROSE_BOOST),
            BooleanClause.Occur.SHOULD);
      }
    }
    return List.of(body.build(), symbol.build(), path.build(),
        prose ? proseField.build() : new MatchNoDocsQuery());
  }

  /** How many parts {@link #parts} has, and the index of each. */
  public static final int PARTS = 4;
  public static final int BODY_PART = 0;
  public static final int SYMBOL_PART = 1;
  public static final int PATH_PART = 2;
  public static final int PROSE_PART = 3;

  /** One term on one field, or the better of the term and its singular form. */
  private static Query field(String field, String term, @Nullable String folded, float boost) {
    Query q = new TermQuery(new Term(field, term));
    if (folded != null) {
      q = new DisjunctionMaxQuery(List.of(q, new TermQuery(new Term(field, folded))), 0f);
    }
    return boost == 1f ? q : new BoostQuery(q, boost);
  }

  /**
   * Whether {@code text} reads as an English sentence rather than code or an identifier: at least
   * {@value #PROSE_MIN_WORDS} space-separated words, at least two of them {@link #STOP_WORDS}, and
   * more than half of them holding a letter. So a sentence keeps its punctuation ({@code is true;
   * otherwise throws}, {@code (char <= 32)}, {@code the [errors, data] response}) while a line of
   * operators does not read as prose.
   */
  public static boolean isProse(String text) {
    String[] words = text.strip().split("\\s+");
    if (words.length < PROSE_MIN_WORDS) {
      return false;
    }
    int worded = 0;
    int stop = 0;
    for (String w : words) {
      if (w.chars().anyMatch(Character::isLetter)) {
        worded++;
      }
      if (STOP_WORDS.contains(w.toLowerCase(Locale.ROOT))) {
        stop++;
      }
    }
    return worded * 2 > words.length && stop >= 2;
  }

  /**
   * The singular (or third-person) form of an English word by suffix alone ({@code entries ->
   * entry}, {@code matches -> match}, {@code gets -> get}), or null when the word has none.
   */
  static @Nullable String singular(String term) {
    if (term.length() < 4 || !term.endsWith("s") || term.endsWith("ss") || term.endsWith("us")
        || term.endsWith("is") || !term.chars().allMatch(Character::isLetter)) {
      return null;
    }
    if (term.endsWith("ies")) {
      return term.substring(0, term.length() - 3) + "y";
    }
    if (term.endsWith("ches") || term.endsWith("shes") || term.endsWith("xes")
        || term.endsWith("sses") || term.endsWith("zes")) {
      return term.substring(0, term.length() - 2);
    }
    return term.substring(0, term.length() - 1);
  }

  /**
   * The distinct analyzed terms of a query (at most {@value #MAX_TERMS}); for prose ({@link
   * #isProse}) without its {@link #STOP_WORDS}, unless nothing else is left.
   */
  public Set<String> terms(String text) {
    Set<String> terms = analyzer.terms(text, MAX_TERMS);
    if (isProse(text)) {
      Set<String> content = new LinkedHashSet<>(terms);
      content.removeAll(STOP_WORDS);
      if (!content.isEmpty()) {
        return content;
      }
    }
    return terms;
  }

  /** The top {@code depth} chunks by BM25 passing {@code filter}, before any freshness check. */
  public List<Candidate> candidates(StoreReader reader, String text, int depth,
      @Nullable Query filter) throws IOException {
    LexicalQuery request = request(text, depth, filter);
    return request == null ? List.of() : reader.lexical(request);
  }

  /** The store request of {@link #candidates}, or null when the text has no part to search. */
  public @Nullable LexicalQuery request(String text, int depth, @Nullable Query filter) {
    List<Query> parts = parts(text);
    return parts.isEmpty() ? null : new LexicalQuery(parts, filter, depth);
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
