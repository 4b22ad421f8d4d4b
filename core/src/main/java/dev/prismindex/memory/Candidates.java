package dev.prismindex.memory;

import dev.prismindex.repository.AbortSignal;
import java.util.Arrays;
import java.util.concurrent.CancellationException;

/**
 * Finds, in one segment field, the documents that may contain a folded needle: a superset of the
 * true matches that {@link MemoryLiteralSearcher} then verifies.
 *
 * <ul>
 *   <li>Three or more units: the needle's distinct trigrams are looked up; a missing one means no
 *       candidate. The rarest list is decoded, then narrowed by the others, rarest first: a bitset
 *       list always (one bit test per candidate), a varint list only while it is at most 32 times
 *       longer than the candidates (skipping it keeps a superset and bounds the work).
 *   <li>One or two units: the union of the key range of trigrams that start with them. When the range
 *       holds more than twice as many postings as the segment has documents, most documents match
 *       anyway, and every document in scope becomes a candidate: verification in path order stops at
 *       the result cap, which is cheaper than the union.
 *   <li>No usable unit (a case-sensitive needle made only of halves of surrogate pairs): every
 *       document in scope, again bounded by the cap during verification.
 * </ul>
 *
 * Then documents outside the scope or deleted are dropped. The result is ascending (path order).
 */
final class Candidates {

  static final int[] NONE = new int[0];

  private Candidates() {}

  static int[] find(SegmentView view, Postings postings, String needle, Scope.Range scope,
      AbortSignal signal) {
    int n = view.segment.docCount();
    if (scope.isEmpty() || view.liveCount == 0) {
      return NONE;
    }
    int[] docs;
    int size;
    int length = needle.length();
    if (length >= 3) {
      int[] lists = new int[length - 2];
      int listCount = 0;
      for (int i = 0; i + 3 <= length; i++) {
        long key = Postings.key(needle.charAt(i), needle.charAt(i + 1), needle.charAt(i + 2));
        int index = postings.find(key);
        if (index < 0) {
          return NONE;
        }
        lists[listCount++] = index;
      }
      lists = sortByCount(postings, lists, listCount);
      docs = new int[postings.count(lists[0])];
      size = postings.decode(lists[0], docs);
      for (int i = 1; i < lists.length && size > 0; i++) {
        if (lists[i] == lists[i - 1]) {
          continue;
        }
        if (postings.isBitset(lists[i]) || postings.count(lists[i]) <= 32L * size) {
          size = postings.retain(lists[i], docs, size);
        }
      }
    } else if (length >= 1) {
      int c0 = needle.charAt(0);
      long lo = length == 2 ? Postings.key(c0, needle.charAt(1), 0) : Postings.key(c0, 0, 0);
      long hi = length == 2 ? Postings.key(c0, needle.charAt(1), 0xFFFF)
          : Postings.key(c0, 0xFFFF, 0xFFFF);
      int from = postings.rangeStart(lo);
      int to = postings.rangeEnd(hi);
      if (from >= to) {
        return NONE;
      }
      long total = 0;
      for (int i = from; i < to; i++) {
        total += postings.count(i);
      }
      if (total > 2L * n) {
        return everyDoc(view, scope);
      }
      long[] bits = new long[(n + 63) >>> 6];
      for (int i = from; i < to; i++) {
        if ((i & 255) == 0 && signal.isAborted()) {
          throw new CancellationException("index query aborted");
        }
        postings.orInto(i, bits);
      }
      docs = new int[n];
      size = 0;
      for (int w = 0; w < bits.length; w++) {
        long word = bits[w];
        while (word != 0) {
          docs[size++] = (w << 6) | Long.numberOfTrailingZeros(word);
          word &= word - 1;
        }
      }
    } else {
      return everyDoc(view, scope);
    }
    int kept = 0;
    for (int i = 0; i < size; i++) {
      int doc = docs[i];
      if (scope.contains(doc) && view.isLive(doc)) {
        docs[kept++] = doc;
      }
    }
    return kept == 0 ? NONE : Arrays.copyOf(docs, kept);
  }

  /** Every live document in scope, ascending (the exact document sorts before the range). */
  private static int[] everyDoc(SegmentView view, Scope.Range scope) {
    int[] docs = new int[scope.size()];
    int size = 0;
    if (scope.exact() >= 0 && view.isLive(scope.exact())) {
      docs[size++] = scope.exact();
    }
    for (int doc = scope.from(); doc < scope.to(); doc++) {
      if (view.isLive(doc)) {
        docs[size++] = doc;
      }
    }
    return size == 0 ? NONE : Arrays.copyOf(docs, size);
  }

  private static int[] sortByCount(Postings postings, int[] lists, int count) {
    long[] packed = new long[count];
    for (int i = 0; i < count; i++) {
      packed[i] = ((long) postings.count(lists[i]) << 32) | lists[i];
    }
    Arrays.sort(packed);
    int[] sorted = new int[count];
    for (int i = 0; i < count; i++) {
      sorted[i] = (int) packed[i];
    }
    return sorted;
  }

  /** The ascending intersection of two ascending lists. */
  static int[] intersect(int[] a, int[] b) {
    int[] out = new int[Math.min(a.length, b.length)];
    int n = 0;
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        out[n++] = a[i];
        i++;
        j++;
      }
    }
    return n == 0 ? NONE : Arrays.copyOf(out, n);
  }
}
