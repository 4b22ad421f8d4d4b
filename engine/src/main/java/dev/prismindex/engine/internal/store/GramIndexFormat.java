package dev.prismindex.engine.internal.store;

import java.io.IOException;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.util.BytesRef;

/**
 * The literal index's n-grams ({@link Schema#FILE_GRAMS}) as an inverted index of our own under
 * Lucene's doc-values API. A FILE document carries its grams as one binary value ({@link
 * #encode}: the sorted packed grams of {@code GramSet}); Lucene only buffers those bytes, and the
 * writer inverts them when the segment is flushed ({@link GramIndexWriter}): one pass to count each
 * gram, one to place each document, instead of a hash lookup and a posting write per gram and
 * document in Lucene's in-memory postings, which were about an eighth of a cold index's CPU.
 * Merges join the segments' postings gram by gram without going back to the values. A reader
 * ({@link GramPostings}) gives a gram's document frequency and documents, and the documents of
 * every gram that contains a bigram. Found by its {@link #NAME} through Lucene's service loader.
 */
public final class GramIndexFormat extends DocValuesFormat {

  /** The name recorded per field in the segments (the service loader finds the format by it). */
  public static final String NAME = "PrismGrams1";

  /** Public, without arguments: Lucene's service loader makes the instance that reads. */
  public GramIndexFormat() {
    super(NAME);
  }

  @Override
  public DocValuesConsumer fieldsConsumer(SegmentWriteState state) throws IOException {
    return new GramIndexWriter(state);
  }

  @Override
  public DocValuesProducer fieldsProducer(SegmentReadState state) throws IOException {
    return new GramIndexReader(state);
  }

  /**
   * The binary value of a document with the packed grams {@code sorted} (ascending, distinct, at
   * least one, positive): their count, the first, then the gaps, each as a variable-length integer.
   *
   * @throws IllegalArgumentException when {@code sorted} is empty, not positive or not strictly
   *     ascending
   */
  public static BytesRef encode(long[] sorted) {
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no grams");
    }
    byte[] out = new byte[5 + 9 * sorted.length];
    int o = writeVLong(out, 0, sorted.length);
    long last = 0;
    for (int i = 0; i < sorted.length; i++) {
      long g = sorted[i];
      if (g <= 0 || i > 0 && g <= last) {
        throw new IllegalArgumentException("grams not positive and strictly ascending");
      }
      o = writeVLong(out, o, g - last);
      last = g;
    }
    return new BytesRef(out, 0, o);
  }

  /** Writes {@code v} (not negative) at {@code o}, seven bits a byte; returns the next offset. */
  static int writeVLong(byte[] out, int o, long v) {
    while ((v & ~0x7FL) != 0) {
      out[o++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[o++] = (byte) v;
    return o;
  }

  /** Reads values {@link #encode} wrote, into an array it reuses. */
  static final class Decoder {
    /** The grams of the last value read, {@code grams[0..size)}. */
    long[] grams = new long[256];
    int size;

    private int position;

    void read(BytesRef value) {
      byte[] b = value.bytes;
      position = value.offset;
      long n = vlong(b);
      if (n > grams.length) {
        grams = new long[(int) Math.max(n, 2L * grams.length)];
      }
      long g = 0;
      for (int i = 0; i < n; i++) {
        g += vlong(b);
        grams[i] = g;
      }
      size = (int) n;
    }

    private long vlong(byte[] b) {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        byte x = b[position++];
        v |= (long) (x & 0x7F) << shift;
        if (x >= 0) {
          return v;
        }
      }
    }
  }
}
