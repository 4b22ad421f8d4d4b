package dev.prismindex.engine.internal.codec;

import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.codecs.DocValuesConsumer;
import org.apache.lucene.codecs.DocValuesFormat;
import org.apache.lucene.codecs.DocValuesProducer;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteArrayDataOutput;
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
    ByteArrayDataOutput o = new ByteArrayDataOutput(out);
    try {
      o.writeVInt(sorted.length);
      long last = 0;
      for (int i = 0; i < sorted.length; i++) {
        long g = sorted[i];
        if (g <= 0 || i > 0 && g <= last) {
          throw new IllegalArgumentException("grams not positive and strictly ascending");
        }
        o.writeVLong(g - last);
        last = g;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // Lucene's signature: writing to an array does not fail
    }
    return new BytesRef(out, 0, o.getPosition());
  }

  /** Reads values {@link #encode} wrote, into an array it reuses. */
  static final class Decoder {
    /** The grams of the last value read, {@code grams[0..size)}. */
    long[] grams = new long[256];
    int size;

    private final ByteArrayDataInput in = new ByteArrayDataInput();

    void read(BytesRef value) {
      in.reset(value.bytes, value.offset, value.length);
      int n = in.readVInt();
      if (n > grams.length) {
        grams = new long[Math.max(n, 2 * grams.length)];
      }
      long g = 0;
      for (int i = 0; i < n; i++) {
        g += in.readVLong();
        grams[i] = g;
      }
      size = n;
    }
  }
}
