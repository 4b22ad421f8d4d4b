package dev.prismindex.engine.internal.codec;

/**
 * The byte encoding of the index's vectors: each unit vector is scaled so that its largest
 * component is {@code ±maxCode} and rounded ({@code q[i] = round(x[i] * maxCode / max|x|)}; 127
 * for int8, less for packed codes, {@link VectorCode}). The scale is not kept: the field's
 * similarity is cosine, which no per-vector scale changes, so documents and queries are encoded
 * the same way and compared by the cosine of their bytes (k-NN over bytes), and a candidate is
 * re-scored by the cosine of the float query to its bytes ({@link #cosine(float[], byte[])}). No
 * float copy is kept.
 */
public final class Int8Vectors {

  private Int8Vectors() {}

  /** The int8 bytes of {@code v} ({@link #encode(float[], int)} with 127). */
  public static byte[] encode(float[] v) {
    return encode(v, 127);
  }

  /**
   * The codes of {@code v}, each in {@code -maxCode..maxCode} ({@code maxCode} at most 127). A zero
   * vector (which has no direction) becomes a fixed unit direction (the first component), since
   * cosine is undefined for zero.
   */
  public static byte[] encode(float[] v, int maxCode) {
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
    if (Float.isInfinite(scale)) { // max subnormal: products infinite or NaN, which round() maps
      for (int i = 0; i < v.length; i++) {
        out[i] = (byte) Math.max(-maxCode, Math.min(maxCode, Math.round(v[i] * scale)));
      }
      return out;
    }
    for (int i = 0; i < v.length; i++) {
      int q = round(v[i] * scale);
      out[i] = (byte) (q > maxCode ? maxCode : q < -maxCode ? -maxCode : q);
    }
    return out;
  }

  /**
   * {@link Math#round(float)} of a finite {@code x} in {@code [-256, 2^20)}, without its call
   * (which C1, the cold index's compiler, does not inline): {@code floor(x + 0.5)}, ties up. In
   * double, {@code x + 256.5} is positive, so the cast is the floor; its rounding cannot cross an
   * integer, since a float that near a half-integer is that half-integer.
   */
  static int round(float x) {
    return (int) ((double) x + 256.5) - 256;
  }

  /** The cosine of {@code query} (any length) and the vector {@code bytes} encode. */
  public static double cosine(float[] query, byte[] bytes) {
    double dot = 0;
    double qq = 0;
    long bb = 0;
    for (int i = 0; i < bytes.length; i++) {
      dot += query[i] * bytes[i];
      qq += (double) query[i] * query[i];
      bb += bytes[i] * bytes[i];
    }
    return qq == 0 || bb == 0 ? 0 : dot / Math.sqrt(qq * bb);
  }
}
