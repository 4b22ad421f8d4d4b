package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * Reads what {@link PackedVectorsWriter} wrote; any inconsistency is a corrupt index. A k-NN search
 * scans the signs of every vector and rescores the nearest by them ({@link #search}).
 */
final class PackedVectorsReader extends KnnVectorsReader {

  private final Map<String, Entry> fields = new HashMap<>();
  private final IndexInput data;

  PackedVectorsReader(SegmentReadState state) throws IOException {
    PackedVectorsWriter.FILES.readMeta(state, meta -> readFields(meta, state.fieldInfos));
    this.data = PackedVectorsWriter.FILES.openData(state);
  }

  private void readFields(ChecksumIndexInput meta, FieldInfos infos) throws IOException {
    for (int number = meta.readInt(); number != -1; number = meta.readInt()) {
      FieldInfo info = infos.fieldInfo(number);
      if (info == null) {
        throw new CorruptIndexException("invalid field number: " + number, meta);
      }
      int similarity = meta.readInt();
      int dimension = meta.readVInt();
      long offset = meta.readVLong();
      long length = meta.readVLong();
      int size = meta.readInt();
      OrdToDocDISIReaderConfiguration ordToDoc =
          OrdToDocDISIReaderConfiguration.fromStoredMeta(meta, size);
      if (info.getVectorEncoding() != VectorEncoding.BYTE
          || info.getVectorSimilarityFunction() != VectorSimilarityFunction.COSINE
          || similarity != info.getVectorSimilarityFunction().ordinal()
          || dimension != info.getVectorDimension()
          || length != (long) size * PackedVectorsFormat.packedLength(dimension)) {
        throw new CorruptIndexException("packed vectors of field \"" + info.name
            + "\" do not match its field info (encoding " + info.getVectorEncoding()
            + ", similarity " + similarity + ", dimension " + dimension + ", " + size
            + " vectors in " + length + " bytes)", meta);
      }
      fields.put(info.name, new Entry(dimension, offset, length, size, ordToDoc,
          PackedVectorValues.norms(size)));
    }
  }

  @Override
  public ByteVectorValues getByteVectorValues(String field) throws IOException {
    return values(entry(field));
  }

  @Override
  public FloatVectorValues getFloatVectorValues(String field) {
    throw new IllegalArgumentException("field \"" + field + "\" has byte vectors, not float");
  }

  @Override
  public void search(String field, float[] target, KnnCollector collector, Bits acceptDocs) {
    throw new IllegalArgumentException("field \"" + field + "\" has byte vectors, not float");
  }

  /**
   * Gives {@code collector} the vectors {@code acceptDocs} accepts nearest to {@code target} by
   * cosine, scored as Lucene's byte cosine {@code (1 + cosine) / 2} ({@link
   * PackedVectorValues#search}: the signs of every accepted vector scanned, those nearest by
   * Hamming distance rescored by cosine).
   */
  @Override
  public void search(String field, byte[] target, KnnCollector collector, Bits acceptDocs)
      throws IOException {
    Entry e = fields.get(field);
    if (e == null || e.size() == 0) {
      return;
    }
    PackedVectorValues values = values(e);
    values.search(target, acceptDocs == null ? null : values.getAcceptOrds(acceptDocs),
        collector);
  }

  private Entry entry(String field) {
    Entry e = fields.get(field);
    if (e == null) {
      throw new IllegalArgumentException("field \"" + field + "\" not found");
    }
    return e;
  }

  private PackedVectorValues values(Entry e) throws IOException {
    return PackedVectorValues.load(e.dimension(), e.size(), e.ordToDoc(), e.offset(),
        e.length(), data, e.norms());
  }

  @Override
  public void checkIntegrity() throws IOException {
    CodecUtil.checksumEntireFile(data);
  }

  @Override
  public long ramBytesUsed() {
    long total = RamUsageEstimator.shallowSizeOfInstance(PackedVectorsReader.class);
    for (Entry e : fields.values()) {
      total += RamUsageEstimator.shallowSizeOfInstance(Entry.class)
          + RamUsageEstimator.sizeOf(e.norms());
    }
    return total;
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(data);
  }

  /** A field's vectors; {@code norms} caches their squared norms, filled as searches score them. */
  private record Entry(int dimension, long offset, long length, int size,
      OrdToDocDISIReaderConfiguration ordToDoc, int[] norms) {}
}
