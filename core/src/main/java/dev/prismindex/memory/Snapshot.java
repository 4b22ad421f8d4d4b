package dev.prismindex.memory;

import java.util.List;

/**
 * One immutable state of the index: its segment views. Searches take the current snapshot once and
 * never see a later update; an update builds the next snapshot beside it and publishes it with a
 * single volatile write.
 */
final class Snapshot {

  static final Snapshot EMPTY = new Snapshot(List.of());

  final List<SegmentView> views;
  final int liveDocs;

  Snapshot(List<SegmentView> views) {
    this.views = List.copyOf(views);
    int live = 0;
    for (SegmentView view : views) {
      live += view.liveCount;
    }
    this.liveDocs = live;
  }

  long byteSize() {
    long bytes = 64;
    for (SegmentView view : views) {
      bytes += view.byteSize();
    }
    return bytes;
  }

  /** Locates the live document of {@code path}: {@code (view << 32) | doc}, or -1. */
  long locate(String path) {
    for (int v = 0; v < views.size(); v++) {
      SegmentView view = views.get(v);
      int doc = view.segment.find(path);
      if (doc >= 0 && view.isLive(doc)) {
        return ((long) v << 32) | doc;
      }
    }
    return -1;
  }
}
