package dev.prismindex.memory;

import org.jspecify.annotations.Nullable;

/**
 * A search scope as document ranges of one segment. Paths are sorted, so the files below directory
 * {@code s} are the contiguous range {@code ["s/", "s0")} ({@code '0'} follows {@code '/'}); a file
 * named exactly {@code s} sorts before that range and is kept as a single extra document.
 */
final class Scope {

  private Scope() {}

  /**
   * Documents {@code [from, to)} plus {@code exact} (or -1).
   *
   * @param from first document of the range
   * @param to end of the range (exclusive)
   * @param exact the document whose path equals the scope, or -1
   */
  record Range(int from, int to, int exact) {
    boolean contains(int doc) {
      return (doc >= from && doc < to) || doc == exact;
    }

    boolean isEmpty() {
      return from >= to && exact < 0;
    }

    int size() {
      return Math.max(0, to - from) + (exact >= 0 ? 1 : 0);
    }
  }

  static Range of(Segment segment, @Nullable String scope) {
    if (scope == null) {
      return new Range(0, segment.docCount(), -1);
    }
    int exact = segment.find(scope);
    int from = segment.lowerBound(scope + "/");
    int to = segment.lowerBound(scope + "0");
    return new Range(from, to, exact);
  }
}
