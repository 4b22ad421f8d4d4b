package dev.prismindex.engine.internal.store;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.util.Bits;
import org.jspecify.annotations.Nullable;

/**
 * A searcher whose BM25 statistics count the live documents only, so that a score depends on what
 * the index holds, not on how it got there. Lucene's own statistics still count a replaced or
 * deleted document until a merge drops it: an index updated file by file then scored the same
 * chunk otherwise than a fresh index of the same tree (issue 41, item 5). Here a segment without
 * deletions gives Lucene's exact figures, and one with deletions has those of its deleted documents
 * subtracted: the document count, the total term frequency and the document frequency sums from
 * each deleted document's own counts of the field (read once per segment from its postings, the
 * first time a searcher needs them, and kept while the segment lives), a term's document frequency
 * by looking up each deleted document in its postings.
 */
final class LiveStatsSearcher extends IndexSearcher {

  /** Makes the searchers of an {@link org.apache.lucene.search.SearcherManager}. */
  static final SearcherFactory FACTORY = new SearcherFactory() {
    @Override
    public IndexSearcher newSearcher(IndexReader reader, @Nullable IndexReader previous) {
      return new LiveStatsSearcher(reader);
    }
  };

  /** Per segment (its core) and field: each document's total term frequency and term count. */
  private static final Map<IndexReader.CacheKey, Map<String, int[][]>> COUNTS =
      new ConcurrentHashMap<>();

  private final Map<String, CollectionStatistics> fields = new ConcurrentHashMap<>();
  /** The deleted documents of each leaf with deletions, by leaf ord; null when it has none. */
  private final int[][] deleted;

  LiveStatsSearcher(IndexReader reader) {
    super(reader);
    deleted = new int[reader.leaves().size()][];
    for (LeafReaderContext leaf : reader.leaves()) {
      Bits live = leaf.reader().getLiveDocs();
      if (live != null) {
        int[] d = new int[leaf.reader().numDeletedDocs()];
        int n = 0;
        for (int doc = 0; doc < live.length() && n < d.length; doc++) {
          if (!live.get(doc)) {
            d[n++] = doc;
          }
        }
        deleted[leaf.ord] = d;
      }
    }
  }

  @Override
  public @Nullable CollectionStatistics collectionStatistics(String field) throws IOException {
    CollectionStatistics s = fields.get(field);
    if (s == null) {
      s = live(field);
      if (s == null) {
        return null;
      }
      fields.put(field, s);
    }
    return s;
  }

  private @Nullable CollectionStatistics live(String field) throws IOException {
    CollectionStatistics all = super.collectionStatistics(field);
    if (all == null) {
      return null;
    }
    long docCount = all.docCount();
    long sumTotalTermFreq = all.sumTotalTermFreq();
    long sumDocFreq = all.sumDocFreq();
    for (LeafReaderContext leaf : leafContexts) {
      int[] gone = deleted[leaf.ord];
      if (gone == null || gone.length == 0) {
        continue;
      }
      int[][] counts = counts(leaf.reader(), field);
      if (counts == null) {
        continue;
      }
      for (int doc : gone) {
        if (counts[1][doc] > 0) {
          docCount--;
          sumTotalTermFreq -= counts[0][doc];
          sumDocFreq -= counts[1][doc];
        }
      }
    }
    if (docCount <= 0) {
      return null;
    }
    return new CollectionStatistics(field, Math.max(docCount, getIndexReader().numDocs()),
        docCount, sumTotalTermFreq, sumDocFreq);
  }

  @Override
  public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
      throws IOException {
    long df = docFreq;
    long ttf = totalTermFreq;
    for (LeafReaderContext leaf : leafContexts) {
      int[] gone = deleted[leaf.ord];
      if (gone == null || gone.length == 0) {
        continue;
      }
      Terms terms = leaf.reader().terms(term.field());
      TermsEnum te = terms == null ? null : terms.iterator();
      if (te == null || !te.seekExact(term.bytes())) {
        continue;
      }
      PostingsEnum pe = te.postings(null, PostingsEnum.FREQS);
      for (int doc : gone) {
        int at = pe.docID() >= doc ? pe.docID() : pe.advance(doc);
        if (at == DocIdSetIterator.NO_MORE_DOCS) {
          break;
        }
        if (at == doc) {
          df--;
          ttf -= pe.freq();
        }
      }
    }
    // Only deleted documents hold it: no live document is scored with these figures.
    return new TermStatistics(term.bytes(), Math.max(1, df), Math.max(Math.max(1, df), ttf));
  }

  /**
   * Each document's total term frequency ({@code [0]}) and number of distinct terms ({@code [1]})
   * in {@code field} of this segment, from its postings; null when the field has none.
   */
  private static int @Nullable [][] counts(LeafReader reader, String field) throws IOException {
    IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
    if (helper == null) {
      return compute(reader, field);
    }
    Map<String, int[][]> byField = COUNTS.computeIfAbsent(helper.getKey(), key -> {
      helper.addClosedListener(COUNTS::remove);
      return new ConcurrentHashMap<>();
    });
    int[][] c = byField.get(field);
    if (c == null) {
      c = compute(reader, field);
      if (c == null) {
        return null;
      }
      byField.put(field, c);
    }
    return c;
  }

  private static int @Nullable [][] compute(LeafReader reader, String field) throws IOException {
    Terms terms = reader.terms(field);
    if (terms == null) {
      return null;
    }
    int[][] c = new int[2][reader.maxDoc()];
    TermsEnum te = terms.iterator();
    PostingsEnum pe = null;
    while (te.next() != null) {
      pe = te.postings(pe, PostingsEnum.FREQS);
      for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
        c[0][doc] += pe.freq();
        c[1][doc]++;
      }
    }
    return c;
  }
}
