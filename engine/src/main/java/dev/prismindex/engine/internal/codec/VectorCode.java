package dev.prismindex.engine.internal.codec;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;

/**
 * How an index codes its vectors: the field they are in and how finely each component is kept.
 * Each is a byte vector of codes {@code round(x[i] * maxCode / max|x|)}, compared by cosine (see
 * {@link Int8Vectors}). An index keeps the code of the vectors it has: {@link #PACKED} unless its
 * segments have an {@link #INT8} field of that dimension ({@link #of}), so the writer and every
 * search agree without recording it.
 */
public enum VectorCode {
  /** int8 codes ({@code -127..127}, one byte each) in Lucene's HNSW format: format 8 and older. */
  INT8("vector_i8_", 127),
  /**
   * {@value PackedVectorsFormat#BITS}-bit codes, packed ({@link PackedVectorsFormat}): from format
   * 11 on (formats 9 and 10, packed under a graph, are no longer read).
   */
  PACKED("vector_p" + PackedVectorsFormat.BITS + "_", PackedVectorsFormat.MAX_CODE);

  private final String prefix;
  private final int maxCode;

  VectorCode(String prefix, int maxCode) {
    this.prefix = prefix;
    this.maxCode = maxCode;
  }

  /**
   * The field of vectors of {@code dimension} components. Lucene fixes a field's dimension for the
   * life of the index, so a model of another dimension writes another field.
   */
  public String field(int dimension) {
    return prefix + dimension;
  }

  /** Whether {@code field} is a vector field of this code. */
  boolean owns(String field) {
    return field.startsWith(prefix);
  }

  /** The codes of {@code v}. */
  public byte[] encode(float[] v) {
    return Int8Vectors.encode(v, maxCode);
  }

  /**
   * The code of the vectors of {@code dimension} components in {@code reader}'s index: {@link
   * #PACKED} when it has that field, else {@link #INT8} when it has that one, else (no vectors of
   * that dimension yet) {@link #PACKED}.
   */
  public static VectorCode of(IndexReader reader, int dimension) {
    boolean int8 = false;
    for (LeafReaderContext leaf : reader.leaves()) {
      var infos = leaf.reader().getFieldInfos();
      if (infos.fieldInfo(PACKED.field(dimension)) != null) {
        return PACKED;
      }
      int8 |= infos.fieldInfo(INT8.field(dimension)) != null;
    }
    return int8 ? INT8 : PACKED;
  }
}
