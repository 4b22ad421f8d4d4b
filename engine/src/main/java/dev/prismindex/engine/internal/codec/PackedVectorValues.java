package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.codecs.lucene90.IndexedDISI;
import org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;
import org.apache.lucene.util.packed.DirectMonotonicReader;
import org.jspecify.annotations.Nullable;

/**
 * The vectors of one field of a segment in {@link PackedVectorsFormat}, read from their packed
 * bytes: handed out unpacked (one code per byte) by document (iteration) or by ordinal, scored
 * against a query straight from the packed bytes ({@link #cosine}), or searched by their signs
 * ({@link #search}). Dense when every document of the segment has a vector, sparse otherwise.
 */
abstract class PackedVectorValues extends ByteVectorValues
    implements RandomAccessVectorValues.Bytes {

  private final int dimension;
  private final int size;
  final IndexInput slice;
  /** The signs of the vectors ({@link PackedVectorsFormat#signs}), one after the other. */
  final IndexInput signs;
  private final byte[] packed;
  private final byte[] value;
  final int[] norms;
  private int lastOrd = -1;

  PackedVectorValues(int dimension, int size, IndexInput slice, IndexInput signs, int[] norms) {
    this.dimension = dimension;
    this.size = size;
    this.slice = slice;
    this.signs = signs;
    this.packed = new byte[PackedVectorsFormat.packedLength(dimension)];
    this.value = new byte[dimension];
    this.norms = norms;
  }

  /**
   * The vectors of {@code size} documents at {@code offset} ({@code length} bytes) of {@code data},
   * their signs right after them, the documents given by {@code ordToDoc}, their norms cached in
   * {@code norms} ({@link #norms}).
   */
  static PackedVectorValues load(int dimension, int size, OrdToDocDISIReaderConfiguration ordToDoc,
      long offset, long length, IndexInput data, int[] norms) throws IOException {
    IndexInput slice = data.slice("packed-vectors", offset, length);
    IndexInput signs = data.slice("vector-signs", offset + length,
        (long) size * PackedVectorsFormat.signWords(dimension) * Long.BYTES);
    if (ordToDoc.isEmpty() || size == 0) {
      return new Dense(dimension, 0, slice, signs, norms);
    }
    if (ordToDoc.isDense()) {
      return new Dense(dimension, size, slice, signs, norms);
    }
    return new Sparse(dimension, size, slice, signs, ordToDoc, data, norms);
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

  /** Vectors whose signs are read at once by {@link #search}. */
  private static final int SCAN_BLOCK = 512;

  /**
   * {@link #search} rescores by cosine the {@code k} vectors a collector keeps plus one in this
   * many of those it scans: with the 210 that a limit-10 search fetches, spring-framework's 128,901
   * vectors in one segment get 2,224 rescored, which hold 99 % of the exact 50 nearest
   * (docs/benchmarks.md, section 12). The share keeps the recall as a segment grows, since the
   * distance by signs ranks the true neighbours of more vectors proportionally lower.
   */
  static final int RESCORED_SHARE = 64;

  /**
   * Gives {@code collector} (by document) the vectors whose ordinal {@code acceptOrds} accepts (all
   * when null) nearest to the codes {@code target}, as Lucene's byte cosine score {@code (1 +
   * cosine) / 2}: the signs of every accepted vector are compared with the query's (Hamming
   * distance: XOR and popcount, {@link PackedVectorsFormat#signs}), and the {@code k + accepted /
   * }{@link #RESCORED_SHARE} nearest by it (those at the cut's distance in the order of their
   * ordinals) are scored by cosine from their packed bytes
   * ({@link #cosine}, the same value as Lucene's byte cosine of the codes). The visited count is
   * the number of vectors accepted.
   */
  void search(byte[] target, @Nullable Bits acceptOrds, KnnCollector collector)
      throws IOException {
    int words = PackedVectorsFormat.signWords(dimension);
    long[] query = new long[words];
    PackedVectorsFormat.signs(target, query, 0);
    // distance[ord]: the Hamming distance of vector ord's signs to the query's; dimension + 1 for
    // a vector not accepted. count[d]: how many accepted vectors are at distance d.
    short[] distance = new short[size];
    int[] count = new int[dimension + 2];
    long[] block = new long[SCAN_BLOCK * words];
    int accepted = 0;
    for (int first = 0; first < size; first += SCAN_BLOCK) {
      int n = Math.min(SCAN_BLOCK, size - first);
      signs.seek((long) first * words * Long.BYTES);
      signs.readLongs(block, 0, n * words);
      for (int j = 0; j < n; j++) {
        int ord = first + j;
        int d;
        if (acceptOrds != null && !acceptOrds.get(ord)) {
          d = dimension + 1;
        } else {
          d = 0;
          for (int w = 0, at = j * words; w < words; w++) {
            d += Long.bitCount(query[w] ^ block[at + w]);
          }
          accepted++;
        }
        distance[ord] = (short) d;
        count[d]++;
      }
    }
    collector.incVisitedCount(accepted);
    int wanted = (int) Math.min(accepted, collector.k() + (long) accepted / RESCORED_SHARE);
    int cut = 0;
    int below = 0;
    while (cut <= dimension && below + count[cut] < wanted) {
      below += count[cut++];
    }
    int atCut = wanted - below;
    int sum = 0;
    int targetNorm = 0;
    for (byte b : target) {
      sum += b;
      targetNorm += b * b;
    }
    for (int ord = 0; ord < size; ord++) {
      int d = distance[ord];
      if (d < cut || d == cut && atCut-- > 0) {
        float score = (1 + cosine(target, sum, targetNorm, ord)) / 2;
        if (score >= collector.minCompetitiveSimilarity()) {
          collector.collect(ordToDoc(ord), score);
        }
      }
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

  /** Scores the vectors by Lucene's byte cosine {@code (1 + cosine) / 2} to {@code query}. */
  @Override
  public VectorScorer scorer(byte[] query) throws IOException {
    PackedVectorValues copy = copy();
    int sum = 0;
    int norm = 0;
    for (byte b : query) {
      sum += b;
      norm += b * b;
    }
    int querySum = sum;
    int queryNorm = norm;
    return new VectorScorer() {
      @Override
      public float score() throws IOException {
        return (1 + copy.cosine(query, querySum, queryNorm, copy.ord())) / 2;
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

    Dense(int dimension, int size, IndexInput slice, IndexInput signs, int[] norms) {
      super(dimension, size, slice, signs, norms);
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
      return new Dense(dimension(), size(), slice.clone(), signs.clone(), norms);
    }
  }

  /** Some documents have a vector: their set and the ordinal-to-document map are in the data. */
  static final class Sparse extends PackedVectorValues {
    private final OrdToDocDISIReaderConfiguration config;
    private final IndexInput data;
    private final IndexedDISI disi;
    private final DirectMonotonicReader ordToDoc;

    Sparse(int dimension, int size, IndexInput slice, IndexInput signs,
        OrdToDocDISIReaderConfiguration config, IndexInput data, int[] norms)
        throws IOException {
      super(dimension, size, slice, signs, norms);
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
      return new Sparse(dimension(), size(), slice.clone(), signs.clone(), config, data,
          norms);
    }
  }
}
