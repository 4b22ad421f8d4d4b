package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.KnnFieldVectorsWriter;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.DocsWithFieldSet;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.index.Sorter;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * Writes the packed vectors of {@link PackedVectorsFormat}: a metadata file (per field its number,
 * similarity, dimension, where its vectors and their signs are and which documents have one) and a
 * data file (per field the packed vectors in document order, their signs, then the document set).
 * Laid out as Lucene's flat vector format, whose document-set encoding it reuses.
 */
final class PackedVectorsWriter extends KnnVectorsWriter {

  /**
   * Measured once: Lucene asks for {@link #ramBytesUsed} after every document, and measuring a
   * class reads (copies) its fields by reflection (a third of a run's vector-side allocation).
   */
  private static final long SHALLOW_SIZE =
      RamUsageEstimator.shallowSizeOfInstance(PackedVectorsWriter.class);

  static final String DATA_EXTENSION = "pvd";
  /** The segment's files: vectors packed in the data file, their fields' entries in the meta. */
  static final SegmentFiles FILES = new SegmentFiles("pvm", "PrismPackedVectorsMeta",
      DATA_EXTENSION, "PrismPackedVectorsData", 1);
  static final int DIRECT_MONOTONIC_BLOCK_SHIFT = 16;

  private final SegmentWriteState state;
  private final IndexOutput meta;
  private final IndexOutput data;
  private final List<FieldWriter> fields = new ArrayList<>();
  private boolean finished;

  PackedVectorsWriter(SegmentWriteState state) throws IOException {
    this.state = state;
    SegmentFiles.Outputs files = FILES.create(state);
    this.meta = files.meta();
    this.data = files.data();
  }

  @Override
  public KnnFieldVectorsWriter<byte[]> addField(FieldInfo field) {
    if (field.getVectorEncoding() != VectorEncoding.BYTE
        || field.getVectorSimilarityFunction() != VectorSimilarityFunction.COSINE) {
      throw new IllegalArgumentException("field \"" + field.name + "\": "
          + PackedVectorsFormat.NAME + " stores byte vectors compared by cosine only, not "
          + field.getVectorEncoding() + " by " + field.getVectorSimilarityFunction());
    }
    FieldWriter writer = new FieldWriter(field);
    fields.add(writer);
    return writer;
  }

  @Override
  public void flush(int maxDoc, Sorter.DocMap sortMap) throws IOException {
    if (sortMap != null) {
      throw new UnsupportedOperationException(PackedVectorsFormat.NAME
          + " does not support index sorting");
    }
    for (FieldWriter field : fields) {
      long offset = data.getFilePointer();
      byte[] packed = new byte[PackedVectorsFormat.packedLength(field.dimension)];
      for (byte[] v : field.vectors) {
        PackedVectorsFormat.pack(v, packed);
        data.writeBytes(packed, packed.length);
      }
      long length = data.getFilePointer() - offset;
      long[] signs = new long[PackedVectorsFormat.signWords(field.dimension)];
      for (byte[] v : field.vectors) {
        writeSigns(v, signs);
      }
      writeMeta(field.info, maxDoc, offset, length, field.docs);
      field.finish();
    }
  }

  /**
   * Writes the merged vectors of {@code field}, then their signs, read from the segments a second
   * time rather than held.
   */
  @Override
  public void mergeOneField(FieldInfo field, MergeState mergeState) throws IOException {
    long offset = data.getFilePointer();
    ByteVectorValues values =
        KnnVectorsWriter.MergedVectorValues.mergeByteVectorValues(field, mergeState);
    byte[] packed = new byte[PackedVectorsFormat.packedLength(field.getVectorDimension())];
    DocsWithFieldSet docs = new DocsWithFieldSet();
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = values.nextDoc()) {
      PackedVectorsFormat.pack(values.vectorValue(), packed);
      data.writeBytes(packed, packed.length);
      docs.add(doc);
    }
    long length = data.getFilePointer() - offset;
    values = KnnVectorsWriter.MergedVectorValues.mergeByteVectorValues(field, mergeState);
    long[] signs = new long[PackedVectorsFormat.signWords(field.getVectorDimension())];
    for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = values.nextDoc()) {
      writeSigns(values.vectorValue(), signs);
    }
    writeMeta(field, state.segmentInfo.maxDoc(), offset, length, docs);
  }

  /** Writes the signs of {@code vector} ({@link PackedVectorsFormat#signs}), {@code buffer} reused. */
  private void writeSigns(byte[] vector, long[] buffer) throws IOException {
    PackedVectorsFormat.signs(vector, buffer, 0);
    for (long word : buffer) {
      data.writeLong(word);
    }
  }

  private void writeMeta(FieldInfo field, int maxDoc, long offset, long length,
      DocsWithFieldSet docs) throws IOException {
    meta.writeInt(field.number);
    meta.writeInt(field.getVectorSimilarityFunction().ordinal());
    meta.writeVInt(field.getVectorDimension());
    meta.writeVLong(offset);
    meta.writeVLong(length);
    int count = docs.cardinality();
    meta.writeInt(count);
    OrdToDocDISIReaderConfiguration.writeStoredMeta(DIRECT_MONOTONIC_BLOCK_SHIFT, meta, data,
        count, maxDoc, docs);
  }

  @Override
  public void finish() throws IOException {
    if (finished) {
      throw new IllegalStateException("already finished");
    }
    finished = true;
    meta.writeInt(-1);
    CodecUtil.writeFooter(meta);
    CodecUtil.writeFooter(data);
  }

  @Override
  public long ramBytesUsed() {
    long total = SHALLOW_SIZE;
    for (FieldWriter field : fields) {
      total += field.ramBytesUsed();
    }
    return total;
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(meta, data);
  }

  /** The vectors of one field of the segment being written, unpacked (one code per byte). */
  private static final class FieldWriter extends KnnFieldVectorsWriter<byte[]> {
    private static final long SHALLOW_SIZE =
        RamUsageEstimator.shallowSizeOfInstance(FieldWriter.class);
    private final FieldInfo info;
    private final int dimension;
    private final DocsWithFieldSet docs = new DocsWithFieldSet();
    private final List<byte[]> vectors = new ArrayList<>();
    private int lastDoc = -1;
    private boolean done;

    FieldWriter(FieldInfo info) {
      this.info = info;
      this.dimension = info.getVectorDimension();
    }

    @Override
    public void addValue(int doc, byte[] vector) {
      if (done) {
        throw new IllegalStateException("already finished, cannot add more values");
      }
      if (doc == lastDoc) {
        throw new IllegalArgumentException("vector field \"" + info.name
            + "\" appears more than once in this document (only one value is allowed per field)");
      }
      PackedVectorsFormat.checkCodes(info.name, vector);
      docs.add(doc);
      vectors.add(copyValue(vector));
      lastDoc = doc;
    }

    @Override
    public byte[] copyValue(byte[] vector) {
      return java.util.Arrays.copyOf(vector, dimension);
    }

    void finish() {
      done = true;
    }

    @Override
    public long ramBytesUsed() {
      return SHALLOW_SIZE + docs.ramBytesUsed()
          + (long) vectors.size() * (RamUsageEstimator.NUM_BYTES_OBJECT_REF
              + RamUsageEstimator.NUM_BYTES_ARRAY_HEADER + dimension);
    }
  }
}
