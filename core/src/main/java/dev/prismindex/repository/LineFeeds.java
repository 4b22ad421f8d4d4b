package dev.prismindex.repository;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Counting line feeds in bytes, 32 at a time: where a line number is needed, not the lines. */
final class LineFeeds {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LineFeeds() {}

  /**
   * The number of line feeds in {@code b[from, to)}: four 8-byte words a step, each word's line
   * feeds marked by one bit ({@link #feeds}) and counted with the processor's bit count (twice
   * as fast as summing byte lanes a word, one word a step: 2.6 against 5.3 ms for rxjava's
   * 16 MB of Java).
   */
  static int count(byte[] b, int from, int to) {
    int count = 0;
    int i = from;
    for (; i + 4 * Long.BYTES <= to; i += 4 * Long.BYTES) {
      count += Long.bitCount(feeds((long) LONGS.get(b, i)))
          + Long.bitCount(feeds((long) LONGS.get(b, i + Long.BYTES)))
          + Long.bitCount(feeds((long) LONGS.get(b, i + 2 * Long.BYTES)))
          + Long.bitCount(feeds((long) LONGS.get(b, i + 3 * Long.BYTES)));
    }
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      count += Long.bitCount(feeds((long) LONGS.get(b, i)));
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        count++;
      }
    }
    return count;
  }

  /** 0x80 in exactly the bytes of {@code word} that are line feeds (no carry crosses a byte). */
  private static long feeds(long word) {
    long w = word ^ 0x0A0A0A0A0A0A0A0AL;
    return ~(((w & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | w | 0x7F7F7F7F7F7F7F7FL);
  }
}
