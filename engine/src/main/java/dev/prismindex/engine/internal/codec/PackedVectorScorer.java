package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.codecs.hnsw.FlatVectorsScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.VectorUtil;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

/**
 * Scores packed vectors by cosine straight from their packed bytes ({@link
 * PackedVectorValues#cosine}), without writing the codes out first, and the codes being indexed
 * (the graph of a new segment) with each vector's squared norm computed once: the same scores, bit
 * for bit, as Lucene's byte cosine over the codes, which it leaves the other similarities to.
 */
final class PackedVectorScorer implements FlatVectorsScorer {

  static final PackedVectorScorer INSTANCE = new PackedVectorScorer();

  private PackedVectorScorer() {}

  @Override
  public RandomVectorScorerSupplier getRandomVectorScorerSupplier(
      VectorSimilarityFunction similarity, RandomAccessVectorValues values) throws IOException {
    if (similarity == VectorSimilarityFunction.COSINE && values instanceof PackedVectorValues p) {
      return new Supplier(p);
    }
    if (similarity == VectorSimilarityFunction.COSINE
        && values instanceof RandomAccessVectorValues.Bytes codes) {
      return new CodesSupplier(codes);
    }
    return DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorerSupplier(similarity, values);
  }

  @Override
  public RandomVectorScorer getRandomVectorScorer(VectorSimilarityFunction similarity,
      RandomAccessVectorValues values, float[] target) throws IOException {
    return DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorer(similarity, values, target);
  }

  @Override
  public RandomVectorScorer getRandomVectorScorer(VectorSimilarityFunction similarity,
      RandomAccessVectorValues values, byte[] target) throws IOException {
    if (similarity == VectorSimilarityFunction.COSINE && values instanceof PackedVectorValues p) {
      return scorer(p, target);
    }
    return DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorer(similarity, values, target);
  }

  /** Lucene's byte cosine score, {@code (1 + cosine) / 2}, of {@code target} to each vector. */
  private static RandomVectorScorer scorer(PackedVectorValues values, byte[] target) {
    int sum = 0;
    int norm = 0;
    for (byte b : target) {
      sum += b;
      norm += b * b;
    }
    int targetSum = sum;
    int targetNorm = norm;
    return new RandomVectorScorer.AbstractRandomVectorScorer(values) {
      @Override
      public float score(int node) throws IOException {
        return (1 + values.cosine(target, targetSum, targetNorm, node)) / 2;
      }
    };
  }

  /**
   * Scores the code vectors being indexed against one of them, for building a new segment's graph:
   * Lucene's byte cosine in Lucene's arithmetic, each vector's squared norm computed once, so one
   * multiply-add per component instead of three. Vectors may be added while it is in use.
   */
  private static final class CodesSupplier implements RandomVectorScorerSupplier {
    private final RandomAccessVectorValues.Bytes values;
    /** Squared norm + 1 of each vector scored so far; 0: not computed yet. */
    private int[] norms = new int[256];

    CodesSupplier(RandomAccessVectorValues.Bytes values) {
      this.values = values;
    }

    @Override
    public RandomVectorScorer scorer(int ord) throws IOException {
      byte[] target = values.vectorValue(ord).clone();
      int targetNorm = norm(ord, target);
      RandomAccessVectorValues.Bytes nodes = values.copy();
      return new RandomVectorScorer.AbstractRandomVectorScorer(values) {
        @Override
        public float score(int node) throws IOException {
          byte[] v = nodes.vectorValue(node);
          int dot = VectorUtil.dotProduct(target, v);
          float cosine =
              (float) (dot / Math.sqrt((double) targetNorm * (double) norm(node, v)));
          return (1 + cosine) / 2;
        }
      };
    }

    /** The squared norm of vector {@code ord}, whose components are {@code v}. */
    private int norm(int ord, byte[] v) {
      if (ord >= norms.length) {
        norms = Arrays.copyOf(norms, Math.max(ord + 1, norms.length * 2));
      }
      int known = norms[ord];
      if (known != 0) {
        return known - 1;
      }
      int norm = VectorUtil.dotProduct(v, v);
      norms[ord] = norm + 1;
      return norm;
    }

    @Override
    public RandomVectorScorerSupplier copy() {
      return new CodesSupplier(values);
    }
  }

  /** Scores the vectors against one of them, for building the graph of a merged segment. */
  private static final class Supplier implements RandomVectorScorerSupplier {
    private final PackedVectorValues targets;
    private final PackedVectorValues values;

    Supplier(PackedVectorValues values) throws IOException {
      this.targets = values.copy();
      this.values = values.copy();
    }

    @Override
    public RandomVectorScorer scorer(int ord) throws IOException {
      return PackedVectorScorer.scorer(values, targets.vectorValue(ord).clone());
    }

    @Override
    public RandomVectorScorerSupplier copy() throws IOException {
      return new Supplier(values);
    }
  }
}
