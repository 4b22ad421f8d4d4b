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
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The local store's k-NN candidates ({@code StoreReader#nearest}): k-NN over the VECTOR documents,
 * resolved to the CHUNK documents that use each vector.
 *
 * <p>The vectors are byte codes ({@link VectorCode}: packed 7-bit, or int8 in an older index); the
 * query is encoded as int8 codes and the {@code 4 x depth + 10} nearest vectors are fetched, then
 * re-scored by the cosine of the float query to their codes. Up to {@link #EXACT_MAX_VECTORS} live
 * vectors they are fetched by scoring every vector with the format's own scorer (exact integer
 * arithmetic, the vectors sharing the last score included), so the answer depends only on the
 * vectors; above it, by the format's k-NN search (packed vectors: a scan of every vector's signs,
 * the nearest by them rescored, {@code PackedVectorsFormat}), which is approximate per segment, so
 * there a fresh and an updated index may differ in their last ranks. Each vector is resolved
 * to its live chunks (several when files share a text); chunks are ranked by cosine, then path,
 * then first line, and every chunk sharing the cosine at the cut competes for it. Vectors no chunk
 * uses any more (the embedding cache) resolve to nothing; when too few chunks result from the
 * vectors fetched, the search repeats with four times as many vectors, up to all of them, so cache entries
 * never hide results. A file filter becomes a filter on the vectors of the chunks it selects.
 */
public final class VectorCandidates {

  /**
   * Up to this many live vectors, every one is scored (an exact scan): the answer then depends
   * only on the vectors, not on how they are split into segments, so a fresh and an incrementally
   * updated index answer alike. Above it, the format's approximate k-NN search finds the
   * candidates (see the class comment). The property is for measuring.
   */
  public static final int EXACT_MAX_VECTORS =
      Integer.getInteger("prism.semantic.exactMaxVectors", 10_000);

  /**
   * The top {@code query.depth()} chunks by cosine similarity to {@code query.unit()} among those
   * its filter selects, best first, with their exact cosine as the score ({@code
   * StoreReader#nearest}); equal cosines in the order of path, then first line (every chunk
   * sharing the cosine at the cut competes for it). An approximate search takes {@code
   * query.fetch()} vectors first.
   */
  public List<Candidate> candidates(IndexSearcher searcher, VectorQuery query)
      throws IOException {
    float[] unit = query.unit();
    int depth = query.depth();
    Predicate<String> files = query.filter() == null ? null : query.selects();
    Set<BytesRef> allowed = null;
    if (query.filter() != null) {
      allowed = vectorKeys(searcher, query.filter());
      if (allowed.isEmpty()) {
        return List.of();
      }
    }
    int vectors = searcher.count(new TermQuery(new Term(Schema.TYPE, Schema.TYPE_VECTOR)));
    if (vectors == 0) {
      return List.of();
    }
    String field = VectorCode.of(searcher.getIndexReader(), unit.length).field(unit.length);
    Query filter = allowed == null ? null : VectorKeys.matching(allowed);
    int k = Math.min(vectors, query.fetch());
    // The query is scored as int8 codes whatever the documents' code: cosine ignores the scale,
    // and the finest code the bytes hold loses the least of the query's direction.
    byte[] codes = Int8Vectors.encode(unit);
    while (true) {
      ScoreDoc[] top = vectors <= EXACT_MAX_VECTORS ? exact(searcher, field, codes, k, allowed)
          : searcher.search(new KnnByteVectorQuery(field, codes, k, filter), k).scoreDocs;
      List<Placed> out = new ArrayList<>();
      if (chunks(searcher, rescore(searcher, field, unit, top), files, depth, out)
          || top.length < k || k >= vectors) {
        return ranked(out, depth);
      }
      k = (int) Math.min(vectors, k * 4L);
    }
  }

  private record Scored(int doc, BytesRef hash, double cosine) {}

  /** A candidate chunk with the place it sorts by. */
  private record Placed(int doc, double cosine, String path, int start) {}

  /**
   * Resolves {@code scored} (best first) to the live chunks {@code files} selects, into {@code
   * out}, until {@code depth} are there and the vectors sharing the last cosine are in.
   *
   * @return whether that many were found (else every vector given was used)
   */
  private static boolean chunks(IndexSearcher searcher, List<Scored> scored,
      @Nullable Predicate<String> files, int depth, List<Placed> out) throws IOException {
    for (int i = 0; i < scored.size(); i++) {
      Scored s = scored.get(i);
      if (out.size() >= depth && s.cosine() < scored.get(i - 1).cosine()) {
        return true;
      }
      for (int doc : chunksOf(searcher, s.hash())) {
        ChunkDoc c = ChunkRecord.read(searcher, doc);
        if (files == null || files.test(c.path())) {
          out.add(new Placed(doc, s.cosine(), c.path(), c.start()));
        }
      }
    }
    return out.size() >= depth;
  }

  /** The first {@code depth} of {@code placed} by cosine, then path, then line, ranked from 1. */
  private static List<Candidate> ranked(List<Placed> placed, int depth) {
    placed.sort(Comparator.comparingDouble(Placed::cosine).reversed()
        .thenComparing(Placed::path).thenComparingInt(Placed::start));
    List<Candidate> out = new ArrayList<>(Math.min(depth, placed.size()));
    for (Placed p : placed.subList(0, Math.min(depth, placed.size()))) {
      out.add(new Candidate(p.doc(), out.size() + 1, p.cosine()));
    }
    return out;
  }

  /**
   * The {@code k} live vectors (whose key is {@code allowed}, when given) scored best against the
   * int8 {@code codes} by the vector format's own scorer (exact integer arithmetic, as in its
   * k-NN search), every vector scored; with those sharing the k-th score, so the set does not depend on
   * the order of the documents.
   */
  private static ScoreDoc[] exact(IndexSearcher searcher, String field, byte[] codes, int k,
      @Nullable Set<BytesRef> allowed) throws IOException {
    int size = 0;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      ByteVectorValues values = leaf.reader().getByteVectorValues(field);
      size += values == null ? 0 : values.size();
    }
    float[] scores = new float[size];
    int[] docs = new int[size];
    int n = 0;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      ByteVectorValues values = leaf.reader().getByteVectorValues(field);
      if (values == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      VectorKeys.Leaf keys = allowed == null ? null : new VectorKeys.Leaf(leaf.reader());
      VectorScorer scorer = values.scorer(codes);
      DocIdSetIterator it = scorer.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        if (keys != null) {
          BytesRef key = keys.key(doc);
          if (key == null || !allowed.contains(key)) {
            continue;
          }
        }
        scores[n] = scorer.score();
        docs[n++] = leaf.docBase + doc;
      }
    }
    if (n <= k) {
      ScoreDoc[] out = new ScoreDoc[n];
      for (int i = 0; i < n; i++) {
        out[i] = new ScoreDoc(docs[i], scores[i]);
      }
      return out;
    }
    float[] sorted = java.util.Arrays.copyOf(scores, n);
    java.util.Arrays.sort(sorted);
    float cut = sorted[n - k]; // the k-th best: every vector scoring it or more
    List<ScoreDoc> out = new ArrayList<>(k + 8);
    for (int i = 0; i < n; i++) {
      if (scores[i] >= cut) {
        out.add(new ScoreDoc(docs[i], scores[i]));
      }
    }
    return out.toArray(ScoreDoc[]::new);
  }

  /**
   * The cosines of the float query to the k-NN results' vectors (their codes in {@code field}),
   * best first.
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
    out.sort(Comparator.comparingDouble(Scored::cosine).reversed());
    return out;
  }

  /** The live chunks whose text has {@code hash}. */
  private static List<Integer> chunksOf(IndexSearcher searcher, BytesRef hash)
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
    return docs;
  }

  /** The keys of the vectors of the chunks {@code fileQuery} selects. */
  private static Set<BytesRef> vectorKeys(IndexSearcher searcher, Query fileQuery)
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
    return hashes;
  }
}
