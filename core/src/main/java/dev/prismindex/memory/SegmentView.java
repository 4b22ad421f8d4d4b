package dev.prismindex.memory;

import org.jspecify.annotations.Nullable;

/**
 * A segment as one snapshot sees it: which of its documents are live. The live bits are never
 * modified once published; an update that deletes copies them (copy-on-write of {@code docCount / 8}
 * bytes, never of the segment).
 */
final class SegmentView {

  final Segment segment;
  /** One bit per document, set when live; {@code null} when every document is live. */
  final long @Nullable [] live;
  final int liveCount;

  SegmentView(Segment segment, long @Nullable [] live, int liveCount) {
    this.segment = segment;
    this.live = live;
    this.liveCount = liveCount;
  }

  static SegmentView allLive(Segment segment) {
    return new SegmentView(segment, null, segment.docCount());
  }

  boolean isLive(int doc) {
    return live == null || (live[doc >>> 6] & (1L << doc)) != 0;
  }

  /** A copy of the live bits, all set when every document is live. */
  long[] copyLive() {
    int n = segment.docCount();
    long[] bits = new long[(n + 63) >>> 6];
    if (live != null) {
      System.arraycopy(live, 0, bits, 0, bits.length);
    } else {
      java.util.Arrays.fill(bits, -1L);
      if ((n & 63) != 0) {
        bits[bits.length - 1] = (1L << n) - 1;
      }
    }
    return bits;
  }

  long byteSize() {
    return segment.byteSize() + (live == null ? 0 : 16L + 8L * live.length) + 32;
  }
}
