package dev.prismindex.engine.internal.store;

/**
 * The int8 encoding of the index's vectors: each unit vector is scaled so that its largest
 * component is ±127 and rounded ({@code q[i] = round(x[i] * 127 / max|x|)}). The scale is not
 * kept: the field's similarity is cosine, which no per-vector scale changes, so documents and
 * queries are encoded the same way and compared by the cosine of their bytes (HNSW over bytes),
 * and a candidate is re-scored by the cosine of the float query to its bytes ({@link
 * #cosine(float[], byte[])}). 384 bytes per vector instead of 1 536, and no float copy.
 */
public final class Int8Vectors {

  private Int8Vectors() {}

  /**
   * The bytes of {@code v}. A zero vector (which has no direction) becomes a fixed unit direction
   * (the first component), since cosine is undefined for zero.
   */
  public static byte[] encode(float[] v) {
    float max = 0;
    for (float f : v) {
      max = Math.max(max, Math.abs(f));
    }
    byte[] out = new byte[v.length];
    if (max == 0 || !Float.isFinite(max)) {
      out[0] = 127;
      return out;
    }
    float scale = 127f / max;
    for (int i = 0; i < v.length; i++) {
      out[i] = (byte) Math.max(-127, Math.min(127, Math.round(v[i] * scale)));
    }
    return out;
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
