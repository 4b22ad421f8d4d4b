package dev.prismindex.repository;

/**
 * Validators for every numeric limit and per-request knob: they reject instead of clamping.
 *
 * <p>Both accept only a "safe integer" (an integral, finite value of magnitude at most 2<sup>53</sup>−1,
 * as JavaScript defines it, so hosts that share limits with the TypeScript reference see identical
 * rules) inside the allowed range, and throw {@link IllegalArgumentException} with the reference's
 * exact message otherwise.
 */
public final class CodingLimits {

  /** The largest "safe integer": 2<sup>53</sup>−1. */
  public static final long MAX_SAFE_INTEGER = 9_007_199_254_740_991L;

  private CodingLimits() {}

  /**
   * Returns {@code value} when it is a safe integer with {@code 1 <= value <= hardCap}.
   *
   * @throws IllegalArgumentException {@code "<name> must be a positive safe integer at most <hardCap>"}
   */
  public static long requirePositive(String name, Number value, long hardCap) {
    if (!isSafeInteger(value) || value.longValue() < 1 || value.longValue() > hardCap) {
      throw new IllegalArgumentException(
          name + " must be a positive safe integer at most " + hardCap);
    }
    return value.longValue();
  }

  /**
   * Returns {@code value} when it is a safe integer with {@code 0 <= value <= hardCap}.
   *
   * @throws IllegalArgumentException {@code "<name> must be a non-negative safe integer at most
   *     <hardCap>"}
   */
  public static long requireNonNegative(String name, Number value, long hardCap) {
    if (!isSafeInteger(value) || value.longValue() < 0 || value.longValue() > hardCap) {
      throw new IllegalArgumentException(
          name + " must be a non-negative safe integer at most " + hardCap);
    }
    return value.longValue();
  }

  /** Whether {@code value} is integral, finite and of magnitude at most {@link #MAX_SAFE_INTEGER}. */
  public static boolean isSafeInteger(Number value) {
    if (value == null) {
      return false;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = value.doubleValue();
      return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) <= MAX_SAFE_INTEGER;
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte) {
      long v = value.longValue();
      return v >= -MAX_SAFE_INTEGER && v <= MAX_SAFE_INTEGER;
    }
    if (value instanceof java.math.BigDecimal big) {
      try {
        long exact = big.longValueExact();
        return exact >= -MAX_SAFE_INTEGER && exact <= MAX_SAFE_INTEGER;
      } catch (ArithmeticException notIntegral) {
        return false;
      }
    }
    if (value instanceof java.math.BigInteger big) {
      return big.bitLength() <= 53;
    }
    return false;
  }
}
