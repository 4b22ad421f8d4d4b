package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.internal.semantic.VectorCandidates;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.engine.spi.VectorQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The {@link StoreReader} of a local commit: its searcher; chunk ids are Lucene doc ids. Released
 * by the caller of {@link IndexStore#read}, not by {@link #close()}.
 */
public final class LuceneReader implements StoreReader {

  private static final VectorCandidates VECTORS = new VectorCandidates();

  private final IndexSearcher searcher;
  private final CommitRecord commit;

  public LuceneReader(IndexSearcher searcher) throws IOException {
    this.searcher = searcher;
    this.commit = new CommitRecord(CommitMeta.of(searcher));
  }

  @Override
  public CommitRecord commit() {
    return commit;
  }

  /**
   * {@inheritDoc}
   *
   * <p>In a total order: score, then path, then line, so that equal scores do not fall in the
   * order of document numbers, which depends on when each file was written ({@link TieOrder}).
   * When the score at the cut is shared with documents beyond it, every document with that score
   * competes for the places left.
   */
  @Override
  public List<Candidate> lexical(LexicalQuery query) throws IOException {
    List<Query> parts = query.parts();
    Query scored;
    if (parts.size() == 1) {
      scored = parts.get(0);
    } else {
      BooleanQuery.Builder any = new BooleanQuery.Builder();
      for (Query p : parts) {
        any.add(p, BooleanClause.Occur.SHOULD);
      }
      scored = any.build();
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder()
        .add(scored, BooleanClause.Occur.MUST)
        .add(new TermQuery(new Term(Schema.TYPE, Schema.TYPE_CHUNK)), BooleanClause.Occur.FILTER);
    if (query.filter() != null) {
      b.add(query.filter(), BooleanClause.Occur.FILTER);
    }
    ScoreDoc[] top = TieOrder.top(searcher, b.build(), query.depth());
    double[][] partScores = parts.size() == 1 ? null : partScores(parts, top);
    List<Candidate> out = new ArrayList<>(top.length);
    int rank = 0;
    for (int i = 0; i < top.length; i++) {
      ScoreDoc sd = top[i];
      out.add(partScores == null ? new Candidate(sd.doc, ++rank, sd.score)
          : new Candidate(sd.doc, ++rank, sd.score, partScores[i]));
    }
    return out;
  }

  /** The score of each part for each of {@code docs}, 0 where a part does not match. */
  private double[][] partScores(List<Query> parts, ScoreDoc[] docs) throws IOException {
    double[][] out = new double[docs.length][parts.size()];
    Integer[] order = new Integer[docs.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> docs[i].doc)); // scorers go forward only
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    for (int p = 0; p < parts.size(); p++) {
      Weight w = searcher.createWeight(searcher.rewrite(parts.get(p)), ScoreMode.COMPLETE, 1f);
      int leafIndex = -1;
      Scorer scorer = null;
      LeafReaderContext leaf = null;
      for (int i : order) {
        int doc = docs[i].doc;
        int li = ReaderUtil.subIndex(doc, leaves);
        if (li != leafIndex) {
          leafIndex = li;
          leaf = leaves.get(li);
          scorer = w.scorer(leaf);
        }
        if (scorer == null) {
          continue;
        }
        int local = doc - leaf.docBase;
        DocIdSetIterator it = scorer.iterator();
        if (it.docID() < local) {
          it.advance(local);
        }
        if (it.docID() == local) {
          out[i][p] = scorer.score();
        }
      }
    }
    return out;
  }

  @Override
  public List<Candidate> nearest(VectorQuery query) throws IOException {
    return VECTORS.candidates(searcher, query);
  }

  @Override
  public List<String> files(GramQuery grams, List<String> scopes) throws IOException {
    return GramCandidates.files(searcher, grams, scopes);
  }

  /** Every path of the commit (from {@link Schema#PATH_SORT}: one term per path). */
  @Override
  public Collection<String> paths(List<String> scopes) throws IOException {
    Set<String> paths = new TreeSet<>();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      SortedDocValues values = leaf.reader().getSortedDocValues(Schema.PATH_SORT);
      if (values == null) {
        continue;
      }
      TermsEnum terms = values.termsEnum();
      for (BytesRef t = terms.next(); t != null; t = terms.next()) {
        paths.add(t.utf8ToString());
      }
    }
    return paths;
  }

  @Override
  public ChunkDoc chunk(int chunk) throws IOException {
    return ChunkRecord.read(searcher, chunk);
  }

  @Override
  public @Nullable FileEntry file(String path) throws IOException {
    return Manifests.lookup(searcher, path);
  }

  /** The searcher (for what only the local store does: its vector statistics). */
  public IndexSearcher searcher() {
    return searcher;
  }
}
