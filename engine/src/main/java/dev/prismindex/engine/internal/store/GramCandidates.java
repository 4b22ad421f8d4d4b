package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.analysis.Grams;
import dev.prismindex.engine.internal.codec.GramPostings;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;
import org.jspecify.annotations.Nullable;

/**
 * The local store's answer to a {@link GramQuery} ({@link StoreReader#files}): the FILE documents
 * whose n-grams satisfy it, from each segment's gram index ({@link GramPostings}) or, in a segment
 * written before format 10, from the terms of {@link Schema#GRAMS}. An AND of grams (a literal
 * query) intersects only its {@value #MAX_QUERY_GRAMS} rarest trigrams and finds nothing as soon
 * as one trigram is in no file; an OR is the union of its parts.
 */
final class GramCandidates {

  /** The most trigrams an AND intersects (the rarest ones). */
  static final int MAX_QUERY_GRAMS = 16;

  /** Per open index reader, its {@link #allFiles}. */
  private static final Map<IndexReader.CacheKey, List<String>> ALL_FILES =
      new ConcurrentHashMap<>();

  private final IndexSearcher searcher;
  private final List<LeafReaderContext> leaves;
  private final List<@Nullable GramPostings> postings;
  /** Whether some segment holds its grams as terms (written before format 10). */
  private final boolean gramTerms;

  private GramCandidates(IndexSearcher searcher) throws IOException {
    this.searcher = searcher;
    this.leaves = searcher.getIndexReader().leaves();
    this.postings = new ArrayList<>(leaves.size());
    boolean terms = false;
    for (LeafReaderContext leaf : leaves) {
      postings.add(GramPostings.of(leaf.reader()));
      terms |= leaf.reader().getFieldInfos().fieldInfo(Schema.GRAMS) != null;
    }
    this.gramTerms = terms;
  }

  /**
   * The paths (sorted by {@link String#compareTo}) of the FILE documents at or below one of
   * {@code scopes} (all when empty) whose grams satisfy {@code query}.
   */
  static List<String> files(IndexSearcher searcher, GramQuery query, List<String> scopes)
      throws IOException {
    return new GramCandidates(searcher).files(query, scopes);
  }

  private List<String> files(GramQuery query, List<String> scopes) throws IOException {
    query = flatten(query);
    List<String> grams = conjunction(query);
    if (grams != null) {
      query = rarest(grams);
      if (query == null) {
        return List.of();
      }
    }
    if (query instanceof GramQuery.All) {
      List<String> all = allFiles();
      if (scopes.isEmpty()) {
        return all;
      }
      List<String> in = new ArrayList<>();
      for (String path : all) {
        if (FileMatcher.inScope(path, scopes)) {
          in.add(path);
        }
      }
      return in;
    }
    return scan(query, scopes);
  }

  /**
   * The paths of every live FILE document, sorted: listed once per open index reader (kept until
   * it closes), as a pattern without a usable gram asks for them on every search.
   */
  private List<String> allFiles() throws IOException {
    IndexReader.CacheHelper helper = searcher.getIndexReader().getReaderCacheHelper();
    if (helper == null) {
      return scan(new GramQuery.All(), List.of());
    }
    IndexReader.CacheKey key = helper.getKey();
    List<String> all = ALL_FILES.get(key);
    if (all == null) {
      all = List.copyOf(scan(new GramQuery.All(), List.of()));
      if (ALL_FILES.putIfAbsent(key, all) == null) {
        helper.addClosedListener(ALL_FILES::remove);
      }
    }
    return all;
  }

  /** {@link #files}, read from the segments. */
  private List<String> scan(GramQuery query, List<String> scopes) throws IOException {
    Weight allFiles = searcher.createWeight(
        new TermQuery(new Term(Schema.TYPE, Schema.TYPE_FILE)), ScoreMode.COMPLETE_NO_SCORES, 1f);
    Weight termGrams = !gramTerms || query instanceof GramQuery.All ? null
        : searcher.createWeight(searcher.rewrite(fileQuery(query)), ScoreMode.COMPLETE_NO_SCORES,
            1f);
    List<String> paths = new ArrayList<>();
    for (int l = 0; l < leaves.size(); l++) {
      LeafReaderContext leaf = leaves.get(l);
      // A FILE document's grams are in the gram index or (written before format 10) terms; a
      // segment merged from both kinds has both.
      List<DocIdSetIterator> found = new ArrayList<>(2);
      if (query instanceof GramQuery.All) {
        found.add(iterator(allFiles.scorer(leaf)));
      } else {
        if (termGrams != null) {
          found.add(iterator(termGrams.scorer(leaf)));
        }
        GramPostings p = postings.get(l);
        if (p != null) {
          found.add(docs(p, query, leaf.reader().maxDoc()));
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
          if (FileMatcher.inScope(path, scopes)) {
            paths.add(path);
          }
        }
      }
    }
    paths.sort(null);
    return paths;
  }

  /** {@code query} with nested ANDs and ORs merged into their parents. */
  private static GramQuery flatten(GramQuery query) {
    if (query instanceof GramQuery.And and) {
      List<GramQuery> all = new ArrayList<>();
      for (GramQuery q : and.all()) {
        GramQuery f = flatten(q);
        if (f instanceof GramQuery.And inner) {
          all.addAll(inner.all());
        } else if (!(f instanceof GramQuery.All)) {
          all.add(f);
        }
      }
      return all.isEmpty() ? GramQuery.all() : all.size() == 1 ? all.get(0)
          : new GramQuery.And(all);
    }
    if (query instanceof GramQuery.Or or) {
      List<GramQuery> any = new ArrayList<>();
      for (GramQuery q : or.any()) {
        GramQuery f = flatten(q);
        if (f instanceof GramQuery.All) {
          return f;
        }
        if (f instanceof GramQuery.Or inner) {
          any.addAll(inner.any());
        } else {
          any.add(f);
        }
      }
      return any.size() == 1 ? any.get(0) : new GramQuery.Or(any);
    }
    return query;
  }

  /** The grams of an AND of grams (or of one gram), or null for any other query. */
  private static @Nullable List<String> conjunction(GramQuery query) {
    if (query instanceof GramQuery.Gram g) {
      return List.of(g.text());
    }
    if (!(query instanceof GramQuery.And and)) {
      return null;
    }
    List<String> out = new ArrayList<>(and.all().size());
    for (GramQuery q : and.all()) {
      if (!(q instanceof GramQuery.Gram g)) {
        return null;
      }
      out.add(g.text());
    }
    return out;
  }

  /**
   * The AND of {@code grams} with only the {@value #MAX_QUERY_GRAMS} rarest trigrams (and every
   * bigram), or null when a trigram is in no file.
   */
  private @Nullable GramQuery rarest(List<String> grams) throws IOException {
    IndexReader reader = searcher.getIndexReader();
    List<String> trigrams = new ArrayList<>();
    List<String> bigrams = new ArrayList<>();
    List<int[]> freq = new ArrayList<>();
    for (String g : grams) {
      if (g.length() < Grams.N) {
        bigrams.add(g);
        continue;
      }
      int df = gramTerms ? reader.docFreq(new Term(Schema.GRAMS, g)) : 0;
      for (GramPostings p : postings) {
        df += p == null ? 0 : p.docFreq(GramSet.pack(g));
      }
      if (df == 0) {
        return null;
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
    List<String> kept = new ArrayList<>(trigrams);
    kept.addAll(bigrams);
    return GramQuery.allOf(kept);
  }

  private static @Nullable DocIdSetIterator iterator(@Nullable Scorer scorer) {
    return scorer == null ? null : scorer.iterator();
  }

  /** The documents of a segment's gram index that satisfy {@code query}, or null for none. */
  private static @Nullable DocIdSetIterator docs(GramPostings postings, GramQuery query,
      int maxDoc) throws IOException {
    if (query instanceof GramQuery.Gram g) {
      return g.text().length() == Grams.N ? postings.docs(GramSet.pack(g.text()))
          : postings.containing(GramSet.pack(g.text()));
    }
    if (query instanceof GramQuery.And and) {
      List<DocIdSetIterator> all = new ArrayList<>(and.all().size());
      for (GramQuery q : and.all()) {
        DocIdSetIterator d = docs(postings, q, maxDoc);
        if (d == null) {
          return null;
        }
        all.add(d);
      }
      return all.size() == 1 ? all.get(0) : ConjunctionUtils.intersectIterators(all);
    }
    if (query instanceof GramQuery.Or or) {
      FixedBitSet union = new FixedBitSet(maxDoc);
      boolean any = false;
      for (GramQuery q : or.any()) {
        DocIdSetIterator d = docs(postings, q, maxDoc);
        if (d != null) {
          union.or(d);
          any = true;
        }
      }
      return any ? new BitSetIterator(union, union.cardinality()) : null;
    }
    throw new IllegalArgumentException("a gram query without grams: " + query);
  }

  /**
   * {@code query} as a query on the FILE documents' {@link Schema#GRAMS} terms, for segments
   * written before format 10.
   */
  private static Query fileQuery(GramQuery query) {
    return new BooleanQuery.Builder()
        .add(new TermQuery(new Term(Schema.TYPE, Schema.TYPE_FILE)), BooleanClause.Occur.FILTER)
        .add(termQuery(query), BooleanClause.Occur.FILTER)
        .build();
  }

  private static Query termQuery(GramQuery query) {
    if (query instanceof GramQuery.Gram g) {
      return g.text().length() == Grams.N ? new TermQuery(new Term(Schema.GRAMS, g.text()))
          : containingGram(g.text());
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    if (query instanceof GramQuery.And and) {
      for (GramQuery q : and.all()) {
        b.add(termQuery(q), BooleanClause.Occur.FILTER);
      }
    } else if (query instanceof GramQuery.Or or) {
      for (GramQuery q : or.any()) {
        b.add(termQuery(q), BooleanClause.Occur.SHOULD);
      }
      b.setMinimumNumberShouldMatch(1);
    } else {
      throw new IllegalArgumentException("a gram query without grams: " + query);
    }
    return b.build();
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
}
