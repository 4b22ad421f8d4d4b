package dev.prismindex.repository;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Counting line feeds in bytes, eight at a time: where a line number is needed, not the lines. */
final class LineFeeds {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LineFeeds() {}

  /**
   * The number of line feeds in {@code b[from, to)}, eight bytes at a time: each word's line
   * feeds as a 1 in their byte's lane of an accumulator (no bit count a word), summed across
   * the lanes every 255 words, before a lane can overflow.
   */
  static int count(byte[] b, int from, int to) {
    int count = 0;
    int i = from;
    while (i + Long.BYTES <= to) {
      long lanes = 0;
      int stop = Math.min(to - Long.BYTES, i + (255 - 1) * Long.BYTES);
      for (; i <= stop; i += Long.BYTES) {
        long w = (long) LONGS.get(b, i) ^ 0x0A0A0A0A0A0A0A0AL;
        // 0x80 in exactly the bytes of w that are zero (no carry crosses a byte).
        long zero = ~(((w & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | w
            | 0x7F7F7F7F7F7F7F7FL);
        lanes += zero >>> 7;
      }
      // Eight lanes of at most 255 each: summed in four 16-bit lanes, then in one.
      long pairs = (lanes & 0x00FF00FF00FF00FFL) + ((lanes >>> 8) & 0x00FF00FF00FF00FFL);
      count += (int) ((pairs * 0x0001000100010001L) >>> 48);
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        count++;
      }
    }
    return count;
  }
}
