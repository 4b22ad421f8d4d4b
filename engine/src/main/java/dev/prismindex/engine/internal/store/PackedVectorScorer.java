package dev.prismindex.engine.internal.store;

import java.io.IOException;
import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.codecs.hnsw.FlatVectorsScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

/**
 * Scores packed vectors by cosine straight from their packed bytes ({@link
 * PackedVectorValues#cosine}), without writing the codes out first: the same score, bit for bit, as
 * Lucene's byte cosine over the unpacked codes, which it leaves the other similarities and any
 * vectors not read from the packed format (those being indexed) to.
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
