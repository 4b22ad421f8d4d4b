package dev.prismindex.engine.internal.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The BM25 statistics of several local indexes taken as one collection, so that their scores
 * compare as if one index held every document: a term's document frequency and total frequency
 * summed over the indexes, and per field the documents, their count with the field and the sums
 * of term and document frequencies (the average field length) summed too. A score still uses the
 * document's own term frequency and length. A search over each index through {@link #searcher}
 * then scores each document exactly as one searcher over a {@code MultiReader} of all of them
 * would, without merging the indexes: Lucene's hooks for it are {@link
 * IndexSearcher#termStatistics} and {@link IndexSearcher#collectionStatistics}, the way a
 * distributed search shares statistics between shards.
 *
 * <p>Computed lazily and kept for one search (one thread): a term is looked up once per index.
 */
public final class MergedStatistics {

  private final List<IndexReader> readers;
  private final Map<String, @Nullable CollectionStatistics> fields = new HashMap<>();
  private final Map<Term, TermStatistics> terms = new HashMap<>();

  /** The statistics of the indexes {@code readers} read (the commits of one search). */
  public MergedStatistics(List<IndexReader> readers) {
    this.readers = List.copyOf(readers);
  }

  /**
   * A searcher over {@code reader} (one of this collection's) that scores with the collection's
   * statistics; the similarity is the index's own (Lucene's default BM25, see {@code
   * CodeSimilarity}).
   */
  public IndexSearcher searcher(IndexReader reader) {
    return new IndexSearcher(reader) {
      @Override
      public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq)
          throws IOException {
        return MergedStatistics.this.term(term);
      }

      @Override
      public @Nullable CollectionStatistics collectionStatistics(String field) throws IOException {
        return MergedStatistics.this.field(field);
      }
    };
  }

  /** A searcher per index, in the order of the readers given. */
  public List<IndexSearcher> searchers() {
    List<IndexSearcher> out = new ArrayList<>(readers.size());
    for (IndexReader r : readers) {
      out.add(searcher(r));
    }
    return out;
  }

  /**
   * The statistics of {@code term} over every index; only asked for a term at least one index
   * holds (Lucene asks when the reader being searched holds it).
   */
  TermStatistics term(Term term) throws IOException {
    TermStatistics s = terms.get(term);
    if (s == null) {
      long docFreq = 0;
      long total = 0;
      for (IndexReader r : readers) {
        docFreq += r.docFreq(term);
        total += r.totalTermFreq(term);
      }
      BytesRef bytes = BytesRef.deepCopyOf(term.bytes());
      s = new TermStatistics(bytes, docFreq, Math.max(total, docFreq));
      terms.put(new Term(term.field(), bytes), s);
    }
    return s;
  }

  /** The statistics of {@code field} over every index, or null when none has it. */
  @Nullable CollectionStatistics field(String field) throws IOException {
    if (fields.containsKey(field)) {
      return fields.get(field);
    }
    long maxDoc = 0;
    long docCount = 0;
    long sumTotalTermFreq = 0;
    long sumDocFreq = 0;
    for (IndexReader r : readers) {
      maxDoc += r.maxDoc();
      CollectionStatistics c = new IndexSearcher(r).collectionStatistics(field);
      if (c != null) {
        docCount += c.docCount();
        sumTotalTermFreq += c.sumTotalTermFreq();
        sumDocFreq += c.sumDocFreq();
      }
    }
    CollectionStatistics merged = docCount == 0 ? null
        : new CollectionStatistics(field, maxDoc, docCount, sumTotalTermFreq, sumDocFreq);
    fields.put(field, merged);
    return merged;
  }
}
