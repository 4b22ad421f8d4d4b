package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.IndexInput;

/**
 * Reads the gram index of a segment ({@link GramIndexWriter}): the meta file whole (each field's
 * counts and block starts), the data file as it is asked for. A field's values are its {@link
 * GramPostings}.
 */
final class GramIndexReader extends DocValuesProducer {

  /** One field's entry in the meta file. */
  record Field(int terms, long postings, int docs, long postingsStart, long dictionaryStart,
      long[] blockFirst, long[] blockDictionary, long[] blockPostings) {}

  private final Map<Integer, Field> fields = new HashMap<>();
  private final IndexInput data;
  private final int maxDoc;

  GramIndexReader(SegmentReadState state) throws IOException {
    maxDoc = state.segmentInfo.maxDoc();
    GramIndexWriter.FILES.readMeta(state, meta -> {
      for (int number = meta.readInt(); number != -1; number = meta.readInt()) {
        if (state.fieldInfos.fieldInfo(number) == null) {
          throw new CorruptIndexException("invalid field number: " + number, meta);
        }
        fields.put(number, readField(meta));
      }
    });
    data = GramIndexWriter.FILES.openData(state);
  }

  private static Field readField(ChecksumIndexInput meta) throws IOException {
    int terms = meta.readVInt();
    long postings = meta.readVLong();
    int docs = meta.readVInt();
    long postingsStart = meta.readVLong();
    long dictionaryStart = meta.readVLong();
    int blocks = meta.readVInt();
    if (terms < 0 || blocks != (terms + GramIndexWriter.BLOCK - 1) / GramIndexWriter.BLOCK) {
      throw new CorruptIndexException("gram index: " + terms + " grams in " + blocks
          + " blocks", meta);
    }
    long[] first = new long[blocks];
    long[] dictionary = new long[blocks];
    long[] postingsAt = new long[blocks];
    for (int b = 0; b < blocks; b++) {
      first[b] = meta.readLong();
      dictionary[b] = meta.readVLong();
      postingsAt[b] = meta.readVLong();
    }
    return new Field(terms, postings, docs, postingsStart, dictionaryStart, first, dictionary,
        postingsAt);
  }

  @Override
  public BinaryDocValues getBinary(FieldInfo field) throws IOException {
    Field f = fields.get(field.number);
    if (f == null) {
      throw new CorruptIndexException("no gram index for field \"" + field.name + "\"", data);
    }
    return new GramPostings(f, data.clone(), maxDoc);
  }

  @Override
  public NumericDocValues getNumeric(FieldInfo field) {
    throw GramIndexWriter.unsupported(field);
  }

  @Override
  public SortedDocValues getSorted(FieldInfo field) {
    throw GramIndexWriter.unsupported(field);
  }

  @Override
  public SortedNumericDocValues getSortedNumeric(FieldInfo field) {
    throw GramIndexWriter.unsupported(field);
  }

  @Override
  public SortedSetDocValues getSortedSet(FieldInfo field) {
    throw GramIndexWriter.unsupported(field);
  }

  @Override
  public void checkIntegrity() throws IOException {
    CodecUtil.checksumEntireFile(data);
  }

  @Override
  public void close() throws IOException {
    data.close();
  }
}
