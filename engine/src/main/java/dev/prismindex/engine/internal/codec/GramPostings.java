package dev.prismindex.engine.internal.codec;

import dev.prismindex.engine.internal.store.Documents;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;
import org.jspecify.annotations.Nullable;

/**
 * The gram index of one segment's field ({@link GramIndexFormat}): each gram's document frequency
 * and documents ({@link #docs}), and the documents of every gram that contains a bigram ({@link
 * #containing}). As Lucene's doc values of the field, it gives each document's binary value back,
 * rebuilt from the postings a window of documents at a time (what Lucene's index check reads; the
 * engine reads the postings only).
 */
public final class GramPostings extends BinaryDocValues {

  /** Documents a step of the rebuilt values covers. */
  private static final int WINDOW = 4096;

  private final GramIndexReader.Field field;
  private final IndexInput data;
  private final int maxDoc;
  private int doc = -1;
  private @Nullable Values values;

  GramPostings(GramIndexReader.Field field, IndexInput data, int maxDoc) {
    this.field = field;
    this.data = data;
    this.maxDoc = maxDoc;
  }

  /**
   * The gram index of {@code reader}'s {@link Schema#FILE_GRAMS}, or null when the segment has none
   * (no FILE document with grams, or one written before format 10, whose grams are terms of {@link
   * Schema#GRAMS}).
   */
  public static @Nullable GramPostings of(LeafReader reader) throws IOException {
    BinaryDocValues values = reader.getBinaryDocValues(Schema.FILE_GRAMS);
    if (values == null) {
      return null;
    }
    if (values instanceof GramPostings p) {
      return p;
    }
    throw new IllegalStateException("field \"" + Schema.FILE_GRAMS + "\" is not a gram index");
  }

  /** The number of documents holding {@code gram} (packed as {@code GramSet} packs it). */
  public int docFreq(long gram) throws IOException {
    Entry entry = find(gram);
    return entry == null ? 0 : entry.docFreq();
  }

  /** The documents holding {@code gram}, ascending, or null when none does. */
  public @Nullable DocIdSetIterator docs(long gram) throws IOException {
    Entry entry = find(gram);
    return entry == null ? null : new Docs(data.clone(), entry.at(), entry.docFreq());
  }

  /**
   * The documents holding a gram that contains the packed bigram {@code bigram}: a trigram that
   * starts or ends with it, or the bigram itself (the gram of a two-unit line).
   */
  public DocIdSetIterator containing(long bigram) throws IOException {
    long units = bigram & 0xFFFF_FFFF_0000L;
    FixedBitSet docs = new FixedBitSet(Math.max(1, maxDoc));
    long cost = 0;
    Terms t = terms();
    for (t.next(); t.gram() >= 0; t.next()) {
      long g = t.gram();
      boolean trigram = g >>> 48 == 3;
      if (g == bigram || trigram && ((g & 0xFFFF_FFFF_0000L) == units
          || (g & 0xFFFF_FFFFL) == units >>> 16)) {
        DocIdSetIterator it = t.docs();
        for (int d = it.nextDoc(); d != NO_MORE_DOCS; d = it.nextDoc()) {
          docs.set(d);
        }
        cost += t.docFreq();
      }
    }
    return new BitSetIterator(docs, cost);
  }

  /** The dictionary in gram order. */
  Terms terms() {
    return new Terms(data.clone());
  }

  /** A gram's document frequency and where its postings start. */
  private record Entry(int docFreq, long at) {}

  /** The dictionary entry of {@code gram}, or null. */
  private @Nullable Entry find(long gram) throws IOException {
    int b = Arrays.binarySearch(field.blockFirst(), gram);
    if (b < 0) {
      b = -b - 2;
      if (b < 0) {
        return null;
      }
    }
    IndexInput in = data.clone();
    in.seek(field.dictionaryStart() + field.blockDictionary()[b]);
    long g = field.blockFirst()[b];
    long at = field.postingsStart() + field.blockPostings()[b];
    int n = Math.min(GramIndexWriter.BLOCK, field.terms() - b * GramIndexWriter.BLOCK);
    for (int i = 0; i < n; i++) {
      g += in.readVLong();
      int df = in.readVInt();
      long length = in.readVLong();
      if (g == gram) {
        return new Entry(df, at);
      }
      if (g > gram) {
        return null;
      }
      at += length;
    }
    return null;
  }

  /** A cursor over the dictionary, in gram order; {@link #gram()} is -1 past the last. */
  final class Terms {
    private final IndexInput in;
    private int index = -1;
    private long gram = -1;
    private int docFreq;
    private long at;
    private long length;

    private Terms(IndexInput in) {
      this.in = in;
    }

    void next() throws IOException {
      if (++index >= field.terms()) {
        gram = -1;
        return;
      }
      if (index == 0) {
        in.seek(field.dictionaryStart());
        at = field.postingsStart();
      } else {
        at += length;
      }
      if (index % GramIndexWriter.BLOCK == 0) {
        gram = field.blockFirst()[index / GramIndexWriter.BLOCK];
      }
      gram += in.readVLong();
      docFreq = in.readVInt();
      length = in.readVLong();
    }

    long gram() {
      return gram;
    }

    int docFreq() {
      return docFreq;
    }

    DocIdSetIterator docs() {
      return new Docs(data.clone(), at, docFreq);
    }
  }

  /** A gram's postings: document gaps, variable-length. */
  private static final class Docs extends DocIdSetIterator {
    private final IndexInput in;
    private final int count;
    private int left;
    private int doc = -1;
    private boolean positioned;
    private final long at;

    Docs(IndexInput in, long at, int count) {
      this.in = in;
      this.at = at;
      this.count = count;
      this.left = count;
    }

    @Override
    public int docID() {
      return doc;
    }

    @Override
    public int nextDoc() throws IOException {
      if (left == 0) {
        return doc = NO_MORE_DOCS;
      }
      if (!positioned) {
        in.seek(at);
        positioned = true;
        doc = 0;
      }
      left--;
      return doc += in.readVInt();
    }

    @Override
    public int advance(int target) throws IOException {
      int d = doc;
      while (d < target) {
        d = nextDoc();
      }
      return d;
    }

    @Override
    public long cost() {
      return count;
    }
  }

  // The values as doc values: rebuilt from the postings, for Lucene's index check.

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() throws IOException {
    return doc == NO_MORE_DOCS ? doc : advance(doc + 1);
  }

  @Override
  public int advance(int target) throws IOException {
    Values v = values();
    for (int d = Math.max(target, doc + 1); d < maxDoc; d++) {
      if (v.has(d)) {
        return doc = d;
      }
    }
    return doc = NO_MORE_DOCS;
  }

  @Override
  public boolean advanceExact(int target) throws IOException {
    doc = target;
    return values().has(target);
  }

  @Override
  public BytesRef binaryValue() throws IOException {
    return values().value(doc);
  }

  @Override
  public long cost() {
    return field.docs();
  }

  private Values values() throws IOException {
    if (values == null) {
      values = new Values();
    }
    return values;
  }

  /**
   * The grams of the documents of one window at a time, read forward: a cursor per gram (its next
   * document and where its postings go on), each window taking the documents below its end.
   */
  private final class Values {
    private final long[] grams = new long[field.terms()];
    private final long[] at = new long[field.terms()];
    private final int[] left = new int[field.terms()];
    private final int[] next = new int[field.terms()];
    private final IndexInput in = data.clone();
    private int windowStart = -WINDOW;
    /** Per document of the window, where its grams start in {@link #byDoc}; one more at the end. */
    private final int[] starts = new int[WINDOW + 1];
    private int[] byDoc = new int[WINDOW];

    Values() throws IOException {
      Terms t = terms();
      int i = 0;
      for (t.next(); t.gram() >= 0; t.next(), i++) {
        grams[i] = t.gram();
        in.seek(t.at);
        next[i] = in.readVInt();
        at[i] = in.getFilePointer();
        left[i] = t.docFreq() - 1;
      }
    }

    boolean has(int d) throws IOException {
      window(d);
      int o = d - windowStart;
      return starts[o + 1] > starts[o];
    }

    BytesRef value(int d) throws IOException {
      window(d);
      int o = d - windowStart;
      long[] out = new long[starts[o + 1] - starts[o]];
      for (int i = 0; i < out.length; i++) {
        out[i] = grams[byDoc[starts[o] + i]];
      }
      return GramIndexFormat.encode(out);
    }

    /** Moves forward to the window holding {@code d}. */
    private void window(int d) throws IOException {
      if (d < windowStart) {
        throw new IllegalStateException("doc " + d + " is behind the values read");
      }
      while (d >= windowStart + WINDOW) {
        windowStart += WINDOW;
        load();
      }
    }

    /** Takes every cursor's documents below the window's end: per document, in gram order. */
    private void load() throws IOException {
      int end = windowStart + WINDOW;
      int[] counts = new int[WINDOW + 1];
      int[] docs = new int[64];
      int[] ranks = new int[64];
      int n = 0;
      for (int g = 0; g < grams.length; g++) {
        while (next[g] < end) {
          if (n == docs.length) {
            docs = Arrays.copyOf(docs, n * 2);
            ranks = Arrays.copyOf(ranks, n * 2);
          }
          docs[n] = next[g] - windowStart;
          ranks[n++] = g;
          counts[next[g] - windowStart + 1]++;
          if (left[g] == 0) {
            next[g] = Integer.MAX_VALUE;
          } else {
            in.seek(at[g]);
            next[g] += in.readVInt();
            at[g] = in.getFilePointer();
            left[g]--;
          }
        }
      }
      for (int o = 0; o < WINDOW; o++) {
        counts[o + 1] += counts[o];
      }
      System.arraycopy(counts, 0, starts, 0, WINDOW + 1);
      if (byDoc.length < n) {
        byDoc = new int[n];
      }
      for (int i = 0; i < n; i++) {
        byDoc[counts[docs[i]]++] = ranks[i];
      }
    }
  }
}
