package dev.prismindex.engine.internal.semantic;

import dev.prismindex.engine.internal.codec.Int8Vectors;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.internal.store.ChunkRecord;
import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.VectorQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnByteVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The local store's k-NN candidates ({@code StoreReader#nearest}): k-NN over the VECTOR documents,
 * resolved to the CHUNK documents that use each vector.
 *
 * <p>The vectors are byte codes ({@link VectorCode}: packed 7-bit, or int8 in an older index); the
 * query is encoded as int8 codes for the HNSW search over bytes, which over-fetches ({@code 4 x
 * depth + 10} vectors: the graph over bytes missed neighbours the float one found at 2 x); the
 * candidates are re-scored by the cosine of the float query to their codes, and each vector is
 * resolved to its live chunks (several when files share a text; ordered by path and line). Vectors no chunk
 * uses any more (the embedding cache) resolve to nothing; when too few chunks result, the search
 * repeats with four times as many vectors, up to all of them, so cache entries never hide
 * results. A file filter becomes a filter on the vectors of the chunks it selects (Lucene then
 * searches the graph with that filter, or exactly when the filter is small).
 */
public final class VectorCandidates {

  /**
   * The top {@code query.depth()} chunks by cosine similarity to {@code query.unit()} among those
   * its filter selects, best first, with their exact cosine as the score ({@code
   * StoreReader#nearest}); the graph search takes {@code query.fetch()} vectors first.
   */
  public List<Candidate> candidates(IndexSearcher searcher, VectorQuery query)
      throws IOException {
    float[] unit = query.unit();
    int depth = query.depth();
    Predicate<String> files = query.filter() == null ? null : query.selects();
    Query filter = null;
    if (query.filter() != null) {
      filter = vectorFilter(searcher, query.filter());
      if (filter == null) {
        return List.of();
      }
    }
    int vectors = searcher.count(new TermQuery(new Term(Schema.TYPE, Schema.TYPE_VECTOR)));
    if (vectors == 0) {
      return List.of();
    }
    int k = Math.min(vectors, query.fetch());
    String field = VectorCode.of(searcher.getIndexReader(), unit.length).field(unit.length);
    // The query walks the graph as int8 codes whatever the documents' code: cosine ignores the
    // scale, and the finest code the bytes hold loses the least of the query's direction.
    byte[] codes = Int8Vectors.encode(unit);
    while (true) {
      TopDocs top = searcher.search(new KnnByteVectorQuery(field, codes, k, filter), k);
      List<Scored> scored = rescore(searcher, field, unit, top.scoreDocs);
      List<Candidate> out = new ArrayList<>();
      Set<Integer> seen = new HashSet<>();
      for (Scored s : scored) {
        for (int doc : chunksOf(searcher, s.hash(), files)) {
          if (seen.add(doc)) {
            out.add(new Candidate(doc, out.size() + 1, s.cosine()));
          }
        }
        if (out.size() >= depth) {
          return out.subList(0, depth);
        }
      }
      if (top.scoreDocs.length < k || k >= vectors) {
        return out;
      }
      k = (int) Math.min(vectors, k * 4L);
    }
  }

  private record Scored(int doc, BytesRef hash, double cosine) {}

  /**
   * The cosines of the float query to the k-NN results' vectors (their codes in {@code field}),
   * best first, ties by doc id.
   */
  private static List<Scored> rescore(IndexSearcher searcher, String field, float[] query,
      ScoreDoc[] docs) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    ScoreDoc[] byDoc = docs.clone();
    java.util.Arrays.sort(byDoc, Comparator.comparingInt(sd -> sd.doc));
    List<Scored> out = new ArrayList<>(docs.length);
    int leafIndex = -1;
    ByteVectorValues values = null;
    VectorKeys.Leaf keys = null;
    LeafReaderContext leaf = null;
    for (ScoreDoc sd : byDoc) {
      int li = ReaderUtil.subIndex(sd.doc, leaves);
      if (li != leafIndex) {
        leafIndex = li;
        leaf = leaves.get(li);
        values = leaf.reader().getByteVectorValues(field);
        keys = new VectorKeys.Leaf(leaf.reader());
      }
      int local = sd.doc - leaf.docBase;
      BytesRef key = keys.key(local);
      if (key == null) {
        continue;
      }
      BytesRef hash = BytesRef.deepCopyOf(key);
      double cosine = 2.0 * sd.score - 1.0; // COSINE score = (1 + cosine) / 2
      if (values != null && values.docID() <= local && values.advance(local) == local) {
        cosine = Int8Vectors.cosine(query, values.vectorValue());
      }
      out.add(new Scored(sd.doc, hash, cosine));
    }
    out.sort(Comparator.comparingDouble(Scored::cosine).reversed()
        .thenComparingInt(Scored::doc));
    return out;
  }

  /**
   * The live chunks whose text has {@code hash} that {@code files} selects (all when null), by path
   * and line (stored fields are read only to check the filter or to order several chunks sharing
   * the text).
   */
  private static List<Integer> chunksOf(IndexSearcher searcher, BytesRef hash,
      @Nullable Predicate<String> files)
      throws IOException {
    List<Integer> docs = new ArrayList<>(1);
    Term term = new Term(Schema.CHUNK_HASH, hash);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      PostingsEnum pe = leaf.reader().postings(term, PostingsEnum.NONE);
      if (pe == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
        if (live == null || live.get(doc)) {
          docs.add(leaf.docBase + doc);
        }
      }
    }
    if (files == null && docs.size() <= 1) {
      return docs;
    }
    List<ChunkDoc> chunks = new ArrayList<>(docs.size());
    List<Integer> ids = new ArrayList<>(docs.size());
    for (int doc : docs) {
      ChunkDoc c = ChunkRecord.read(searcher, doc);
      if (files == null || files.test(c.path())) {
        chunks.add(c);
        ids.add(doc);
      }
    }
    Integer[] order = new Integer[chunks.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, Comparator.<Integer, String>comparing(i -> chunks.get(i).path())
        .thenComparingInt(i -> chunks.get(i).start()));
    List<Integer> out = new ArrayList<>(order.length);
    for (int i : order) {
      out.add(ids.get(i));
    }
    return out;
  }

  /**
   * A filter on the vectors of the chunks {@code fileQuery} selects; null when it selects no
   * chunk.
   */
  private static @Nullable Query vectorFilter(IndexSearcher searcher, Query fileQuery)
      throws IOException {
    Query chunks = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(Schema.TYPE, Schema.TYPE_CHUNK)), BooleanClause.Occur.FILTER)
        .add(fileQuery, BooleanClause.Occur.FILTER).build();
    Weight w = searcher.createWeight(searcher.rewrite(chunks), ScoreMode.COMPLETE_NO_SCORES, 1f);
    Set<BytesRef> hashes = new HashSet<>();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Scorer scorer = w.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      BinaryDocValues values = DocValues.getBinary(leaf.reader(), Schema.CHUNK_HASH);
      Bits live = leaf.reader().getLiveDocs();
      DocIdSetIterator it = scorer.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        if ((live == null || live.get(doc)) && values.advanceExact(doc)) {
          hashes.add(BytesRef.deepCopyOf(values.binaryValue()));
        }
      }
    }
    return hashes.isEmpty() ? null : VectorKeys.matching(hashes);
  }
}
