package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.codecs.hnsw.FlatVectorsScorer;
import org.apache.lucene.codecs.lucene90.IndexedDISI;
import org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.packed.DirectMonotonicReader;
import org.jspecify.annotations.Nullable;

/**
 * The vectors of one field of a segment in {@link PackedVectorsFormat}, read from their packed
 * bytes: handed out unpacked (one code per byte) by document (iteration) or by ordinal, or scored
 * against a query straight from the packed bytes ({@link #cosine}, for {@link PackedVectorScorer}).
 * Dense when every document of the segment has a vector, sparse otherwise.
 */
abstract class PackedVectorValues extends ByteVectorValues
    implements RandomAccessVectorValues.Bytes {

  private final int dimension;
  private final int size;
  final IndexInput slice;
  private final byte[] packed;
  private final byte[] value;
  final FlatVectorsScorer scorer;
  final VectorSimilarityFunction similarity;
  final int[] norms;
  private int lastOrd = -1;

  PackedVectorValues(int dimension, int size, IndexInput slice, FlatVectorsScorer scorer,
      VectorSimilarityFunction similarity, int[] norms) {
    this.dimension = dimension;
    this.size = size;
    this.slice = slice;
    this.packed = new byte[PackedVectorsFormat.packedLength(dimension)];
    this.value = new byte[dimension];
    this.scorer = scorer;
    this.similarity = similarity;
    this.norms = norms;
  }

  /**
   * The vectors of {@code size} documents at {@code offset} ({@code length} bytes) of {@code data},
   * the documents given by {@code ordToDoc}, their norms cached in {@code norms} ({@link #norms}).
   */
  static PackedVectorValues load(int dimension, int size, OrdToDocDISIReaderConfiguration ordToDoc,
      long offset, long length, IndexInput data, FlatVectorsScorer scorer,
      VectorSimilarityFunction similarity, int[] norms) throws IOException {
    IndexInput slice = data.slice("packed-vectors", offset, length);
    if (ordToDoc.isEmpty() || size == 0) {
      return new Dense(dimension, 0, slice, scorer, similarity, norms);
    }
    if (ordToDoc.isDense()) {
      return new Dense(dimension, size, slice, scorer, similarity, norms);
    }
    return new Sparse(dimension, size, slice, ordToDoc, data, scorer, similarity, norms);
  }

  /** Vectors written one after the other, {@code size} of them, all documents {@code 0..size-1}. */
  static Dense dense(int dimension, int size, IndexInput slice, FlatVectorsScorer scorer,
      VectorSimilarityFunction similarity) {
    return new Dense(dimension, size, slice, scorer, similarity, norms(size));
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public byte[] vectorValue(int ord) throws IOException {
    if (ord != lastOrd) {
      slice.seek((long) ord * packed.length);
      slice.readBytes(packed, 0, packed.length);
      PackedVectorsFormat.unpack(packed, value);
      lastOrd = ord;
    }
    return value;
  }

  @Override
  public byte[] vectorValue() throws IOException {
    return vectorValue(ord());
  }

  /**
   * The cosine of {@code target} (the sum and squared norm of its codes given) to vector {@code
   * ord}, computed from its packed bytes ({@link PackedVectorsFormat#cosine}): the same value as
   * Lucene's byte cosine of the two code vectors. The vector's norm is computed the first time
   * and kept for the segment.
   */
  float cosine(byte[] target, int targetSum, int targetNorm, int ord) throws IOException {
    slice.seek((long) ord * packed.length);
    slice.readBytes(packed, 0, packed.length);
    int norm = norms[ord];
    if (norm < 0) {
      norm = PackedVectorsFormat.norm(packed, dimension);
      norms[ord] = norm; // racing threads store the same value
    }
    return PackedVectorsFormat.cosine(target, targetSum, targetNorm, packed, norm);
  }

  /** Vectors read at once by {@link #scan}. */
  private static final int SCAN_BLOCK = 256;

  /**
   * Scores every vector whose ordinal {@code acceptOrds} accepts (all when null) against the codes
   * {@code target}, as Lucene's byte cosine score {@code (1 + cosine) / 2}, and gives the
   * competitive ones to {@code collector} by document: the vectors are read a block at a time and
   * scored from the block's packed bytes (the same scores as {@link #cosine}).
   */
  void scan(byte[] target, @Nullable Bits acceptOrds, KnnCollector collector)
      throws IOException {
    int sum = 0;
    int targetNorm = 0;
    for (byte b : target) {
      sum += b;
      targetNorm += b * b;
    }
    int length = packed.length;
    byte[] block = new byte[SCAN_BLOCK * length];
    for (int first = 0; first < size && !collector.earlyTerminated(); first += SCAN_BLOCK) {
      int n = Math.min(SCAN_BLOCK, size - first);
      slice.seek((long) first * length);
      slice.readBytes(block, 0, n * length);
      int visited = 0;
      for (int j = 0; j < n; j++) {
        int ord = first + j;
        if (acceptOrds != null && !acceptOrds.get(ord)) {
          continue;
        }
        visited++;
        int norm = norms[ord];
        if (norm < 0) {
          norm = PackedVectorsFormat.norm(block, j * length, dimension);
          norms[ord] = norm; // racing threads store the same value
        }
        float score =
            (1 + PackedVectorsFormat.cosine(target, sum, targetNorm, block, j * length, norm)) / 2;
        if (score >= collector.minCompetitiveSimilarity()) {
          collector.collect(ordToDoc(ord), score);
        }
      }
      collector.incVisitedCount(visited);
    }
  }

  /** A norm cache for {@code size} vectors: every entry unknown. */
  static int[] norms(int size) {
    int[] norms = new int[size];
    Arrays.fill(norms, -1);
    return norms;
  }

  /** The ordinal of the current document. */
  abstract int ord();

  @Override
  public abstract PackedVectorValues copy() throws IOException;

  @Override
  public VectorScorer scorer(byte[] query) throws IOException {
    PackedVectorValues copy = copy();
    RandomVectorScorer scores = scorer.getRandomVectorScorer(similarity, copy, query);
    return new VectorScorer() {
      @Override
      public float score() throws IOException {
        return scores.score(copy.ord());
      }

      @Override
      public DocIdSetIterator iterator() {
        return copy;
      }
    };
  }

  /** Every document of the segment has a vector: the ordinal is the document. */
  static final class Dense extends PackedVectorValues {
    private int doc = -1;

    Dense(int dimension, int size, IndexInput slice, FlatVectorsScorer scorer,
        VectorSimilarityFunction similarity, int[] norms) {
      super(dimension, size, slice, scorer, similarity, norms);
    }

    @Override
    int ord() {
      return doc;
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public int nextDoc() {
      return advance(doc + 1);
    }

    @Override
    public int advance(int target) {
      return doc = target >= size() ? NO_MORE_DOCS : target;
    }

    @Override
    public Dense copy() {
      return new Dense(dimension(), size(), slice.clone(), scorer, similarity, norms);
    }
  }

  /** Some documents have a vector: their set and the ordinal-to-document map are in the data. */
  static final class Sparse extends PackedVectorValues {
    private final OrdToDocDISIReaderConfiguration config;
    private final IndexInput data;
    private final IndexedDISI disi;
    private final DirectMonotonicReader ordToDoc;

    Sparse(int dimension, int size, IndexInput slice, OrdToDocDISIReaderConfiguration config,
        IndexInput data, FlatVectorsScorer scorer, VectorSimilarityFunction similarity,
        int[] norms) throws IOException {
      super(dimension, size, slice, scorer, similarity, norms);
      this.config = config;
      this.data = data;
      this.disi = config.getIndexedDISI(data);
      this.ordToDoc = config.getDirectMonotonicReader(data);
    }

    @Override
    int ord() {
      return disi.index();
    }

    @Override
    public int docID() {
      return disi.docID();
    }

    @Override
    public int nextDoc() throws IOException {
      return disi.nextDoc();
    }

    @Override
    public int advance(int target) throws IOException {
      return disi.advance(target);
    }

    @Override
    public int ordToDoc(int ord) {
      return (int) ordToDoc.get(ord);
    }

    @Override
    public Bits getAcceptOrds(Bits acceptDocs) {
      if (acceptDocs == null) {
        return null;
      }
      return new Bits() {
        @Override
        public boolean get(int index) {
          return acceptDocs.get(ordToDoc(index));
        }

        @Override
        public int length() {
          return size();
        }
      };
    }

    @Override
    public Sparse copy() throws IOException {
      return new Sparse(dimension(), size(), slice.clone(), config, data, scorer,
          similarity, norms);
    }
  }
}
