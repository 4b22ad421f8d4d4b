package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * The vector format of packed vector fields ({@link VectorCode#PACKED}), searched without a graph:
 * byte vectors whose components are {@link #BITS}-bit codes ({@code -MAX_CODE..MAX_CODE}), stored
 * packed ({@link #packedLength}: 224 bytes for 256 dimensions at 7 bits instead of 256), and beside
 * them each vector's signs, one bit per component ({@link #signs}: 32 bytes for 256 dimensions).
 * A k-NN search scans the signs of every vector (XOR and popcount against the query's), rescores
 * the vectors nearest by Hamming distance by cosine straight from their packed bytes ({@link
 * PackedVectorsReader#search}: the value Lucene's byte cosine gives the codes) and keeps the best.
 * Writing costs no more than storing the codes (no graph is built, at flush or merge). Readers hand
 * out the unpacked codes as ordinary byte vectors. Only cosine is supported; a component out of
 * range is refused when the document is added. Found by its {@link #NAME} through Lucene's service
 * loader, which reads an index back with it.
 */
public final class PackedVectorsFormat extends KnnVectorsFormat {

  /** The name recorded per field in the segments (the service loader finds the format by it). */
  public static final String NAME = "PrismPacked7Signs";

  /** The bits of a packed component. */
  static final int BITS = 7;

  /** The largest code of a component; codes are {@code -MAX_CODE..MAX_CODE}. */
  static final int MAX_CODE = (1 << (BITS - 1)) - 1;

  private static final int MASK = (1 << BITS) - 1;

  /** Public, without arguments: Lucene's service loader makes the instance that reads. */
  public PackedVectorsFormat() {
    super(NAME);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return new PackedVectorsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return new PackedVectorsReader(state);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return 1024;
  }

  /** The bytes a vector of {@code dimension} components takes packed. */
  static int packedLength(int dimension) {
    return (dimension * BITS + 7) / 8;
  }

  /** The longs of a vector's signs ({@link #signs}): one bit per component. */
  static int signWords(int dimension) {
    return (dimension + Long.SIZE - 1) / Long.SIZE;
  }

  /**
   * Writes the signs of the codes {@code vector} into {@code out} from {@code at} on ({@link
   * #signWords} longs): bit {@code i % 64} of long {@code i / 64} is set when component {@code i}
   * is positive. The Hamming distance of two vectors' signs estimates their angle (the signs of
   * random projections would do it without bias; the model's axes serve, measured in {@code
   * docs/benchmarks.md}, section 12).
   */
  static void signs(byte[] vector, long[] out, int at) {
    for (int w = 0; w < signWords(vector.length); w++) {
      long word = 0;
      int end = Math.min(vector.length, (w + 1) * Long.SIZE);
      for (int i = w * Long.SIZE; i < end; i++) {
        word |= (long) (vector[i] > 0 ? 1 : 0) << (i & (Long.SIZE - 1));
      }
      out[at + w] = word;
    }
  }

  /**
   * Refuses a vector of {@code field} with a component out of {@code -MAX_CODE..MAX_CODE}.
   *
   * @throws IllegalArgumentException naming the field and the component
   */
  static void checkCodes(String field, byte[] vector) {
    for (int i = 0; i < vector.length; i++) {
      if (vector[i] < -MAX_CODE || vector[i] > MAX_CODE) {
        throw new IllegalArgumentException("vector field \"" + field + "\": component " + i
            + " is " + vector[i] + ", out of the " + BITS + "-bit range -" + MAX_CODE + ".."
            + MAX_CODE);
      }
    }
  }

  /**
   * Packs the codes of {@code vector} (each in {@code -MAX_CODE..MAX_CODE}, {@link #checkCodes})
   * into {@code out} ({@link #packedLength} bytes), {@link #BITS} bits each, least significant
   * first.
   */
  static void pack(byte[] vector, byte[] out) {
    int acc = 0;
    int bits = 0;
    int o = 0;
    for (byte b : vector) {
      acc |= (b + MAX_CODE + 1) << bits;
      bits += BITS;
      if (bits >= 8) {
        out[o++] = (byte) acc;
        acc >>>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) {
      out[o] = (byte) acc;
    }
  }

  /**
   * The inverse of {@link #pack}: the {@code out.length} codes of {@code packed}. Eight codes fill
   * exactly {@link #BITS} bytes, so they are read as one word and cut apart; the rest, if the
   * dimension is no multiple of eight, one by one.
   */
  static void unpack(byte[] packed, byte[] out) {
    int i = 0;
    int p = 0;
    for (; i + 8 <= out.length; i += 8, p += BITS) {
      long word = word(packed, p);
      for (int j = 0; j < 8; j++) {
        out[i + j] = (byte) (((int) (word >>> (BITS * j)) & MASK) - MAX_CODE - 1);
      }
    }
    for (; i < out.length; i++) {
      out[i] = (byte) (stored(packed, 0, i) - MAX_CODE - 1);
    }
  }

  /**
   * The cosine of the codes {@code target} (their sum {@code targetSum}, their squared norm {@code
   * targetNorm}) to the codes {@code packed} holds (their squared norm {@code norm}, {@link
   * #norm}), in Lucene's arithmetic (integer sums, then {@code (float) (dot / sqrt(norm1 *
   * norm2))}), so it equals Lucene's byte cosine of the two code vectors. The dot product is taken
   * with the stored codes, which are offset by {@code MAX_CODE + 1}, and the offset's share
   * ({@code (MAX_CODE + 1) * targetSum}) taken off once: one multiply-add per component.
   */
  static float cosine(byte[] target, int targetSum, int targetNorm, byte[] packed, int norm) {
    return cosine(target, targetSum, targetNorm, packed, 0, norm);
  }

  /** {@link #cosine}, the packed codes from {@code from} on in {@code packed}. */
  static float cosine(byte[] target, int targetSum, int targetNorm, byte[] packed, int from,
      int norm) {
    int dot = 0;
    int i = 0;
    int p = from;
    for (; i + 8 <= target.length; i += 8, p += BITS) {
      long w = word(packed, p);
      dot += ((int) w & MASK) * target[i]
          + ((int) (w >>> BITS) & MASK) * target[i + 1]
          + ((int) (w >>> (2 * BITS)) & MASK) * target[i + 2]
          + ((int) (w >>> (3 * BITS)) & MASK) * target[i + 3]
          + ((int) (w >>> (4 * BITS)) & MASK) * target[i + 4]
          + ((int) (w >>> (5 * BITS)) & MASK) * target[i + 5]
          + ((int) (w >>> (6 * BITS)) & MASK) * target[i + 6]
          + ((int) (w >>> (7 * BITS)) & MASK) * target[i + 7];
    }
    for (; i < target.length; i++) {
      dot += stored(packed, from, i) * target[i];
    }
    dot -= (MAX_CODE + 1) * targetSum;
    return (float) (dot / Math.sqrt((double) targetNorm * (double) norm));
  }

  /** The squared norm of the {@code dimension} codes {@code packed} holds. */
  static int norm(byte[] packed, int dimension) {
    return norm(packed, 0, dimension);
  }

  /** {@link #norm}, the packed codes from {@code from} on in {@code packed}. */
  static int norm(byte[] packed, int from, int dimension) {
    int norm = 0;
    for (int i = 0; i < dimension; i++) {
      int code = stored(packed, from, i) - MAX_CODE - 1;
      norm += code * code;
    }
    return norm;
  }

  /**
   * Component {@code i} of the codes packed from {@code from} on in {@code packed}, as stored (the code plus {@code MAX_CODE + 1}): the
   * {@link #BITS} bits from bit {@code i * BITS} on, which span at most two bytes.
   */
  private static int stored(byte[] packed, int from, int i) {
    int bit = i * BITS;
    int b = from + (bit >>> 3);
    int v = packed[b] & 0xFF;
    if (b + 1 < packed.length) {
      v |= (packed[b + 1] & 0xFF) << 8;
    }
    return (v >>> (bit & 7)) & MASK;
  }

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long WORD_MASK = BITS == 8 ? -1L : (1L << (8 * BITS)) - 1;

  /** The {@link #BITS} bytes of {@code packed} at {@code p}, little-endian: eight codes. */
  private static long word(byte[] packed, int p) {
    if (p + Long.BYTES <= packed.length) {
      return (long) LONG_LE.get(packed, p) & WORD_MASK;
    }
    long word = 0;
    for (int b = 0; b < BITS; b++) {
      word |= (packed[p + b] & 0xFFL) << (8 * b);
    }
    return word;
  }
}
