package dev.prismindex.memory;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The int8-quantised document vectors of one segment, one row per document.
 *
 * <p>A row keeps {@code round(x[i] / scale)} in {@code [-127, 127]} with {@code scale = max|x| / 127}
 * (one {@code float} per row), so a dot product is an integer sum times two scales. A segment stores
 * its rows densely ({@code docCount * dimension} bytes in one array) or, when at most a third of the
 * quantised components are non-zero, sparsely: per row its non-zero components as (index, value)
 * pairs in flat arrays, indexes as one byte when the dimension is at most 256 and two otherwise.
 * Feature-hashed vectors of short files are sparse; model vectors are dense.
 */
final class VectorStore {

  private final int dimension;
  private final int docCount;
  private final float[] scales;
  private final byte @Nullable [] dense;
  private final int @Nullable [] rowStarts;
  private final byte @Nullable [] byteIndexes;
  private final char @Nullable [] charIndexes;
  private final byte @Nullable [] values;

  private VectorStore(int dimension, int docCount, float[] scales, byte @Nullable [] dense,
      int @Nullable [] rowStarts,
      byte @Nullable [] byteIndexes, char @Nullable [] charIndexes, byte @Nullable [] values) {
    this.dimension = dimension;
    this.docCount = docCount;
    this.scales = scales;
    this.dense = dense;
    this.rowStarts = rowStarts;
    this.byteIndexes = byteIndexes;
    this.charIndexes = charIndexes;
    this.values = values;
  }

  int dimension() {
    return dimension;
  }

  float scale(int doc) {
    return scales[doc];
  }

  boolean isSparse() {
    return dense == null;
  }

  /** The integer dot product of row {@code doc} with a quantised query. */
  int dot(int doc, byte[] query) {
    int sum = 0;
    if (dense != null) {
      int base = doc * dimension;
      for (int i = 0; i < dimension; i++) {
        sum += query[i] * dense[base + i];
      }
      return sum;
    }
    int end = rowStarts[doc + 1];
    if (byteIndexes != null) {
      for (int j = rowStarts[doc]; j < end; j++) {
        sum += query[byteIndexes[j] & 0xFF] * values[j];
      }
    } else {
      for (int j = rowStarts[doc]; j < end; j++) {
        sum += query[charIndexes[j]] * values[j];
      }
    }
    return sum;
  }

  /** Writes row {@code doc} densely into {@code out[0..dimension)}. */
  void copyRow(int doc, byte[] out) {
    if (dense != null) {
      System.arraycopy(dense, doc * dimension, out, 0, dimension);
      return;
    }
    Arrays.fill(out, 0, dimension, (byte) 0);
    for (int j = rowStarts[doc]; j < rowStarts[doc + 1]; j++) {
      int index = byteIndexes != null ? byteIndexes[j] & 0xFF : charIndexes[j];
      out[index] = values[j];
    }
  }

  long byteSize() {
    long bytes = 16 + 4L * docCount;
    if (dense != null) {
      return bytes + 16 + dense.length;
    }
    bytes += 16 + 4L * rowStarts.length + 16 + values.length;
    return bytes + 16 + (byteIndexes != null ? byteIndexes.length : 2L * charIndexes.length);
  }

  /** Quantises {@code vector} into {@code out} and returns its scale (0 for a zero vector). */
  static float quantise(float[] vector, byte[] out) {
    float max = 0;
    for (float x : vector) {
      if (!Float.isFinite(x)) {
        throw new IllegalArgumentException("embedding has a non-finite component");
      }
      max = Math.max(max, Math.abs(x));
    }
    if (max == 0) {
      Arrays.fill(out, 0, vector.length, (byte) 0);
      return 0;
    }
    float scale = max / 127f;
    for (int i = 0; i < vector.length; i++) {
      out[i] = (byte) Math.round(vector[i] / scale);
    }
    return scale;
  }

  /** Collects quantised rows in document order, then picks the dense or sparse form. */
  static final class Builder {
    private final int dimension;
    private final int docCount;
    private final float[] scales;
    private final byte[] rows;
    private int added;
    private long nonZero;

    Builder(int dimension, int docCount) {
      this.dimension = dimension;
      this.docCount = docCount;
      this.scales = new float[docCount];
      long total = (long) dimension * docCount;
      if (total > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("segment vectors exceed 2 GiB");
      }
      this.rows = new byte[(int) total];
    }

    /** Appends the next row: {@code row[0..dimension)} with its scale. */
    void add(byte[] row, float scale) {
      System.arraycopy(row, 0, rows, added * dimension, dimension);
      for (int i = 0; i < dimension; i++) {
        if (row[i] != 0) {
          nonZero++;
        }
      }
      scales[added++] = scale;
    }

    VectorStore build() {
      if (added != docCount) {
        throw new IllegalStateException("expected " + docCount + " rows, got " + added);
      }
      if (nonZero * 3 > (long) dimension * docCount) {
        return new VectorStore(dimension, docCount, scales, rows, null, null, null, null);
      }
      int[] starts = new int[docCount + 1];
      byte[] values = new byte[(int) nonZero];
      boolean small = dimension <= 256;
      byte[] byteIndexes = small ? new byte[(int) nonZero] : null;
      char[] charIndexes = small ? null : new char[(int) nonZero];
      int at = 0;
      for (int doc = 0; doc < docCount; doc++) {
        starts[doc] = at;
        int base = doc * dimension;
        for (int i = 0; i < dimension; i++) {
          byte value = rows[base + i];
          if (value != 0) {
            if (small) {
              byteIndexes[at] = (byte) i;
            } else {
              charIndexes[at] = (char) i;
            }
            values[at++] = value;
          }
        }
      }
      starts[docCount] = at;
      return new VectorStore(dimension, docCount, scales, null, starts, byteIndexes, charIndexes,
          values);
    }
  }
}
