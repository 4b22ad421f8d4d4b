package dev.prismindex.engine.spi;

import dev.prismindex.engine.internal.codec.Int8Vectors;

/**
 * The int8 codes a store keeps of a unit vector (a quarter of its floats), and the one cosine
 * every store scores k-NN candidates by ({@link StoreReader#nearest}), so that two stores holding
 * the same codes give the same scores.
 */
public final class VectorCodes {

  private VectorCodes() {}

  /** The int8 codes of {@code unit}: {@code round(x[i] * 127 / max|x|)}. */
  public static byte[] int8(float[] unit) {
    return Int8Vectors.encode(unit);
  }

  /** The cosine of the float {@code query} (unit length) to the vector {@code codes} stand for. */
  public static double cosine(float[] query, byte[] codes) {
    return Int8Vectors.cosine(query, codes);
  }
}
