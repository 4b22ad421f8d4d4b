package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.IOUtils;

/**
 * Writes the gram index of a segment ({@link GramIndexFormat}): per field, the postings of each
 * gram (document gaps, variable-length), then a dictionary in blocks of {@value #BLOCK} grams
 * (the gap from the previous gram, the document frequency, the postings' length), in the data
 * file; the first gram of each block and where the block and its postings start, in the meta file,
 * which a reader keeps in memory. A flush inverts the buffered values in two passes over them
 * (count, then place); a merge joins the segments' postings gram by gram.
 */
final class GramIndexWriter extends DocValuesConsumer {

  /** The segment's files: postings and dictionary in the data file, block starts in the meta. */
  static final SegmentFiles FILES =
      new SegmentFiles("pgm", "PrismGramsMeta", "pgd", "PrismGramsData", 0);
  /** Grams per dictionary block. */
  static final int BLOCK = 64;

  private IndexOutput meta;
  private IndexOutput data;
  private final int maxDoc;

  GramIndexWriter(SegmentWriteState state) throws IOException {
    maxDoc = state.segmentInfo.maxDoc();
    SegmentFiles.Outputs files = FILES.create(state);
    meta = files.meta();
    data = files.data();
  }

  /**
   * Inverts the buffered values: the first pass counts each distinct gram, the grams are sorted
   * and given their postings' place in one array, the second pass places each document.
   */
  @Override
  public void addBinaryField(FieldInfo field, DocValuesProducer values) throws IOException {
    GramIndexFormat.Decoder decoder = new GramIndexFormat.Decoder();
    GramCounts counts = new GramCounts();
    BinaryDocValues v = values.getBinary(field);
    long total = 0;
    int docs = 0;
    for (int doc = v.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = v.nextDoc()) {
      decoder.read(v.binaryValue());
      for (int i = 0; i < decoder.size; i++) {
        counts.increment(decoder.grams[i]);
      }
      total += decoder.size;
      docs++;
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("field \"" + field.name + "\": " + total
          + " postings in one segment");
    }
    long[] grams = counts.keys();
    Arrays.sort(grams);
    int[] next = new int[grams.length + 1];
    for (int r = 0; r < grams.length; r++) {
      next[r + 1] = next[r] + counts.setRank(grams[r], r);
    }
    int[] start = next.clone();
    int[] postings = new int[(int) total];
    v = values.getBinary(field);
    for (int doc = v.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = v.nextDoc()) {
      decoder.read(v.binaryValue());
      for (int i = 0; i < decoder.size; i++) {
        postings[next[counts.rank(decoder.grams[i])]++] = doc;
      }
    }
    FieldOutput out = new FieldOutput();
    for (int r = 0; r < grams.length; r++) {
      out.add(grams[r], postings, start[r], start[r + 1] - start[r]);
    }
    out.finish(field, docs);
  }

  /**
   * Joins the segments' postings gram by gram, in gram order, each segment's documents renumbered
   * by the merge (deleted ones dropped).
   */
  @Override
  public void mergeBinaryField(FieldInfo field, MergeState state) throws IOException {
    List<GramPostings.Terms> segments = new ArrayList<>();
    List<MergeState.DocMap> maps = new ArrayList<>();
    for (int i = 0; i < state.docValuesProducers.length; i++) {
      FieldInfo own = state.fieldInfos[i].fieldInfo(field.name);
      DocValuesProducer producer = state.docValuesProducers[i];
      if (own == null || own.getDocValuesType() != DocValuesType.BINARY || producer == null) {
        continue;
      }
      if (!(producer.getBinary(own) instanceof GramPostings p)) {
        throw new IllegalStateException("field \"" + field.name + "\" is not a gram index");
      }
      segments.add(p.terms());
      maps.add(state.docMaps[i]);
    }
    FixedBitSet withGrams = new FixedBitSet(Math.max(1, maxDoc));
    FieldOutput out = new FieldOutput();
    int[] docs = new int[64];
    for (GramPostings.Terms t : segments) {
      t.next();
    }
    while (true) {
      long gram = Long.MAX_VALUE;
      for (GramPostings.Terms t : segments) {
        if (t.gram() >= 0 && t.gram() < gram) {
          gram = t.gram();
        }
      }
      if (gram == Long.MAX_VALUE) {
        break;
      }
      int n = 0;
      boolean sorted = true;
      for (int i = 0; i < segments.size(); i++) {
        GramPostings.Terms t = segments.get(i);
        if (t.gram() != gram) {
          continue;
        }
        DocIdSetIterator it = t.docs();
        MergeState.DocMap map = maps.get(i);
        for (int d = it.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = it.nextDoc()) {
          int mapped = map.get(d);
          if (mapped < 0) {
            continue;
          }
          if (n == docs.length) {
            docs = Arrays.copyOf(docs, n * 2);
          }
          sorted &= n == 0 || docs[n - 1] < mapped;
          docs[n++] = mapped;
          withGrams.set(mapped);
        }
        t.next();
      }
      if (n > 0) {
        if (!sorted) {
          Arrays.sort(docs, 0, n);
        }
        out.add(gram, docs, 0, n);
      }
    }
    out.finish(field, withGrams.cardinality());
  }

  /** One field's postings and dictionary as they are written. */
  private final class FieldOutput {
    private final long postingsStart = data.getFilePointer();
    private final ByteBuffersDataOutput dictionary = new ByteBuffersDataOutput();
    private long[] blockFirst = new long[16];
    private long[] blockDictionary = new long[16];
    private long[] blockPostings = new long[16];
    private int terms;
    private long postings;
    private long last;

    /** Adds a gram, greater than the last, and its {@code n} documents, ascending. */
    void add(long gram, int[] docs, int from, int n) throws IOException {
      long at = data.getFilePointer();
      int previous = 0;
      for (int i = from; i < from + n; i++) {
        data.writeVInt(docs[i] - previous);
        previous = docs[i];
      }
      if (terms % BLOCK == 0) {
        int b = terms / BLOCK;
        if (b == blockFirst.length) {
          blockFirst = Arrays.copyOf(blockFirst, b * 2);
          blockDictionary = Arrays.copyOf(blockDictionary, b * 2);
          blockPostings = Arrays.copyOf(blockPostings, b * 2);
        }
        blockFirst[b] = gram;
        blockDictionary[b] = dictionary.size();
        blockPostings[b] = at - postingsStart;
        last = gram;
      }
      dictionary.writeVLong(gram - last);
      dictionary.writeVInt(n);
      dictionary.writeVLong(data.getFilePointer() - at);
      last = gram;
      terms++;
      postings += n;
    }

    /** Writes the dictionary after the postings, and the field's entry in the meta file. */
    void finish(FieldInfo field, int docs) throws IOException {
      long dictionaryStart = data.getFilePointer();
      dictionary.copyTo(data);
      meta.writeInt(field.number);
      meta.writeVInt(terms);
      meta.writeVLong(postings);
      meta.writeVInt(docs);
      meta.writeVLong(postingsStart);
      meta.writeVLong(dictionaryStart);
      int blocks = (terms + BLOCK - 1) / BLOCK;
      meta.writeVInt(blocks);
      for (int b = 0; b < blocks; b++) {
        meta.writeLong(blockFirst[b]);
        meta.writeVLong(blockDictionary[b]);
        meta.writeVLong(blockPostings[b]);
      }
    }
  }

  /** An open-addressing map from a packed gram to its count, then to its rank. */
  private static final class GramCounts {
    private long[] keys = new long[1 << 14];
    private int[] values = new int[1 << 14];
    private int size;

    void increment(long gram) {
      int slot = slot(gram);
      if (keys[slot] == gram) {
        values[slot]++;
        return;
      }
      keys[slot] = gram;
      values[slot] = 1;
      if (++size * 2 > keys.length) {
        grow();
      }
    }

    /** Sets the rank of {@code gram} (present) and returns its count. */
    int setRank(long gram, int rank) {
      int slot = slot(gram);
      int count = values[slot];
      values[slot] = rank;
      return count;
    }

    int rank(long gram) {
      return values[slot(gram)];
    }

    long[] keys() {
      long[] out = new long[size];
      int j = 0;
      for (long k : keys) {
        if (k != 0) {
          out[j++] = k;
        }
      }
      return out;
    }

    /** The slot holding {@code gram}, or the empty one where it belongs (grams are never 0). */
    private int slot(long gram) {
      int mask = keys.length - 1;
      long h = gram * 0x9E3779B97F4A7C15L;
      int slot = (int) (h ^ (h >>> 32)) & mask;
      while (keys[slot] != 0 && keys[slot] != gram) {
        slot = (slot + 1) & mask;
      }
      return slot;
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldValues = values;
      keys = new long[oldKeys.length * 2];
      values = new int[oldKeys.length * 2];
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldKeys[i] != 0) {
          int slot = slot(oldKeys[i]);
          keys[slot] = oldKeys[i];
          values[slot] = oldValues[i];
        }
      }
    }
  }

  @Override
  public void addNumericField(FieldInfo field, DocValuesProducer values) {
    throw unsupported(field);
  }

  @Override
  public void addSortedField(FieldInfo field, DocValuesProducer values) {
    throw unsupported(field);
  }

  @Override
  public void addSortedNumericField(FieldInfo field, DocValuesProducer values) {
    throw unsupported(field);
  }

  @Override
  public void addSortedSetField(FieldInfo field, DocValuesProducer values) {
    throw unsupported(field);
  }

  static UnsupportedOperationException unsupported(FieldInfo field) {
    return new UnsupportedOperationException("field \"" + field.name + "\": "
        + GramIndexFormat.NAME + " holds binary gram values only");
  }

  @Override
  public void close() throws IOException {
    boolean success = false;
    try {
      if (meta != null) {
        meta.writeInt(-1);
        CodecUtil.writeFooter(meta);
      }
      if (data != null) {
        CodecUtil.writeFooter(data);
      }
      success = true;
    } finally {
      if (success) {
        IOUtils.close(data, meta);
      } else {
        IOUtils.closeWhileHandlingException(data, meta);
      }
      meta = null;
      data = null;
    }
  }
}
