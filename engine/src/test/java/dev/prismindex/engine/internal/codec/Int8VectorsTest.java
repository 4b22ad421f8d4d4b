package dev.prismindex.engine.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class Int8VectorsTest {

  @Test
  void theBytesKeepTheDirectionOfAUnitVector() {
    Random random = new Random(11);
    for (int n = 0; n < 200; n++) {
      float[] v = unit(random, 384);
      byte[] q = Int8Vectors.encode(v);
      assertThat(q).hasSize(384);
      assertThat(Int8Vectors.cosine(v, q)).isGreaterThan(0.999);
      int max = 0;
      for (byte b : q) {
        max = Math.max(max, Math.abs(b));
      }
      assertThat(max).isEqualTo(127); // the largest component takes the full range
    }
  }

  @Test
  void cosinesOfFloatQueriesToBytesRankLikeTheFloatCosines() {
    Random random = new Random(5);
    float[] query = unit(random, 64);
    float[] near = query.clone();
    near[0] += 0.3f;
    float[] far = unit(random, 64);
    assertThat(Int8Vectors.cosine(query, Int8Vectors.encode(near)))
        .isGreaterThan(Int8Vectors.cosine(query, Int8Vectors.encode(far)));
    assertThat(Int8Vectors.cosine(query, Int8Vectors.encode(query))).isGreaterThan(0.999);
  }

  @Test
  void theZeroVectorGetsAFixedDirectionAndIsDeterministic() {
    byte[] q = Int8Vectors.encode(new float[8]);
    assertThat(q).containsExactly(127, 0, 0, 0, 0, 0, 0, 0);
    float[] v = {0.5f, -0.5f, 0.5f, -0.5f};
    assertThat(Int8Vectors.encode(v)).containsExactly(127, -127, 127, -127);
    assertThat(Int8Vectors.encode(v.clone())).containsExactly(Int8Vectors.encode(v));
  }

  private static float[] unit(Random random, int dim) {
    float[] v = new float[dim];
    double sum = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
      sum += v[i] * v[i];
    }
    for (int i = 0; i < dim; i++) {
      v[i] /= (float) Math.sqrt(sum);
    }
    return v;
  }
}
