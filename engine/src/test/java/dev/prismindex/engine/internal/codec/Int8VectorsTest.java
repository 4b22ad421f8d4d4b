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

  /** The encoding before its rounding was inlined: the reference the bytes must equal. */
  private static byte[] encodeWithMathRound(float[] v, int maxCode) {
    float max = 0;
    for (float f : v) {
      max = Math.max(max, Math.abs(f));
    }
    byte[] out = new byte[v.length];
    if (max == 0 || !Float.isFinite(max)) {
      out[0] = (byte) maxCode;
      return out;
    }
    float scale = maxCode / max;
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) Math.max(-maxCode, Math.min(maxCode, Math.round(v[i] * scale)));
    }
    return out;
  }

  @Test
  void theRoundingIsMathRoundAroundEveryHalfIntegerOfTheRange() {
    for (int twice = -300; twice <= 300; twice++) {
      float x = twice / 2f;
      float up = x;
      float down = x;
      for (int k = 0; k < 20_000; k++) {
        assertThat(Int8Vectors.round(up)).as("%s", up).isEqualTo(Math.round(up));
        assertThat(Int8Vectors.round(down)).as("%s", down).isEqualTo(Math.round(down));
        up = Math.nextUp(up);
        down = Math.nextDown(down);
      }
    }
    Random random = new Random(3);
    for (int n = 0; n < 2_000_000; n++) {
      float x = (random.nextFloat() - 0.5f) * 512;
      assertThat(Int8Vectors.round(x)).isEqualTo(Math.round(x));
    }
    for (float x : new float[] {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, 0.49999997f,
        -0.49999997f, 0.50000006f, -0.50000006f, 127.5f, -127.5f, 255.5f, -255.5f}) {
      assertThat(Int8Vectors.round(x)).as("%s", x).isEqualTo(Math.round(x));
    }
  }

  @Test
  void theBytesAreThoseOfMathRoundOnRandomAndEdgeVectors() {
    Random random = new Random(17);
    for (int maxCode : new int[] {127, 63, 7, 1}) {
      for (int n = 0; n < 3_000; n++) {
        float[] v = unit(random, 1 + random.nextInt(300));
        if (n % 3 == 0) { // components on the ±0.5 boundaries of the codes
          for (int i = 1; i < v.length; i++) {
            v[i] = (random.nextInt(2 * maxCode + 1) - maxCode + (random.nextBoolean() ? .5f : -.5f))
                / maxCode;
          }
          v[0] = 1f;
        }
        assertThat(Int8Vectors.encode(v, maxCode)).isEqualTo(encodeWithMathRound(v, maxCode));
      }
    }
    float[][] edges = {
      {Float.NaN, 1f, -1f}, {1f, Float.NaN}, {Float.POSITIVE_INFINITY, 1f},
      {Float.NEGATIVE_INFINITY, 0.5f}, {Float.MAX_VALUE, -Float.MAX_VALUE, 1f},
      {Float.MIN_VALUE, -Float.MIN_VALUE, 0f}, {Float.MIN_NORMAL, -Float.MIN_NORMAL / 3},
      {1e-40f, -1e-40f, 5e-41f}, {0f, 0f}, {-0f, 0f}, {1f, 0.49999997f / 127, -0.5f / 127},
      {-1f, 0.5f / 127, -0.50000006f / 127}, {1f, -1f, 1f}
    };
    for (float[] v : edges) {
      for (int maxCode : new int[] {127, 15}) {
        assertThat(Int8Vectors.encode(v, maxCode)).as("%s", java.util.Arrays.toString(v))
            .isEqualTo(encodeWithMathRound(v, maxCode));
      }
    }
  }
}
