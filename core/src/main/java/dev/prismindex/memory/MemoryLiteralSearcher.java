package dev.prismindex.memory;

import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.RepositoryLimits;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;

/**
 * Answers {@code indexed_literal}: candidates from the gram postings ({@link Candidates}), verified
 * with {@link LiteralPattern} (so matches are exactly the scanner's), in a documented order.
 *
 * <p><b>Tiers and order.</b> A file matches when its content has a matching line or its path contains
 * the query (same case rules). Hits come in three tiers, each in path order ({@link String} order):
 * content and path both match (score {@value #SCORE_CONTENT_AND_PATH}), content only
 * ({@value #SCORE_CONTENT}), path only ({@value #SCORE_PATH}). A content hit carries the first
 * matching line, its 1-based number and column, and that line as snippet; a path-only hit carries
 * line 0 (no line matched) and the path as snippet.
 *
 * <p><b>Work.</b> Each tier walks the per-segment candidate lists merged in path order and stops as
 * soon as {@code maxResults + 1} hits exist in all (the extra one proves {@code truncated}), so a
 * common query verifies about {@code maxResults} files, not every candidate.
 */
final class MemoryLiteralSearcher {

  static final double SCORE_CONTENT_AND_PATH = 1.0;
  static final double SCORE_CONTENT = 0.75;
  static final double SCORE_PATH = 0.5;

  private MemoryLiteralSearcher() {}

  static IndexQueryResult search(Snapshot snapshot, IndexQuery query, int maxLineBytes) {
    LiteralPattern pattern = LiteralPattern.compile(query.query(), query.caseSensitive(),
        RepositoryLimits.HARD_MAX_SEARCH_PATTERN_BYTES);
    String needle = GramKeys.foldedNeedle(query.query(), query.caseSensitive());
    Prefilter prefilter = Prefilter.of(query.query(), query.caseSensitive());
    AbortSignal signal = query.signal();
    List<SegmentView> views = snapshot.views;
    int viewCount = views.size();
    int[][] content = new int[viewCount][];
    int[][] paths = new int[viewCount][];
    int[][] both = new int[viewCount][];
    for (int v = 0; v < viewCount; v++) {
      checkAbort(signal);
      SegmentView view = views.get(v);
      Scope.Range scope = Scope.of(view.segment, query.scope());
      content[v] = Candidates.find(view, view.segment.contentGrams(), needle, scope, signal);
      paths[v] = Candidates.find(view, view.segment.pathGrams(), needle, scope, signal);
      both[v] = Candidates.intersect(content[v], paths[v]);
    }
    int want = query.maxResults() + 1;
    List<IndexSearchHit> hits = new ArrayList<>();
    int[][] tierA = new int[viewCount][];
    int[] tierASize = new int[viewCount];

    Walk walk = new Walk(views, both, signal);
    while (hits.size() < want && walk.next()) {
      if (pattern.column(walk.path) == 0) {
        continue;
      }
      Optional<LiteralPattern.LineMatch> match =
          verify(pattern, prefilter, walk.segment(), walk.doc);
      if (match.isPresent()) {
        hits.add(contentHit(walk.path, SCORE_CONTENT_AND_PATH, match.get(), maxLineBytes));
        int[] found = tierA[walk.view];
        if (found == null) {
          found = tierA[walk.view] = new int[8];
        } else if (tierASize[walk.view] == found.length) {
          found = tierA[walk.view] = Arrays.copyOf(found, found.length * 2);
        }
        found[tierASize[walk.view]++] = walk.doc;
      }
    }
    walk = new Walk(views, content, signal);
    while (hits.size() < want && walk.next()) {
      if (pattern.column(walk.path) > 0) {
        continue; // a path match: tier A if the content matched, otherwise not a content hit
      }
      Optional<LiteralPattern.LineMatch> match =
          verify(pattern, prefilter, walk.segment(), walk.doc);
      if (match.isPresent()) {
        hits.add(contentHit(walk.path, SCORE_CONTENT, match.get(), maxLineBytes));
      }
    }
    walk = new Walk(views, paths, signal);
    while (hits.size() < want && walk.next()) {
      if (pattern.column(walk.path) == 0) {
        continue;
      }
      int[] found = tierA[walk.view];
      if (found != null && Arrays.binarySearch(found, 0, tierASize[walk.view], walk.doc) >= 0) {
        continue; // already served in tier A
      }
      hits.add(new IndexSearchHit(walk.path, SCORE_PATH, walk.path, 0, 0, 0));
    }
    boolean truncated = hits.size() > query.maxResults();
    if (truncated) {
      hits = hits.subList(0, query.maxResults());
    }
    return new IndexQueryResult(List.copyOf(hits), truncated);
  }

  /**
   * The first matching line of a candidate, by {@link LiteralPattern}; for ASCII content and an ASCII
   * query, a byte scan first rejects content that cannot match, without decoding any line.
   */
  private static Optional<LiteralPattern.LineMatch> verify(LiteralPattern pattern,
      @Nullable Prefilter prefilter, Segment segment, int doc) {
    byte[] content = segment.content(doc);
    if (prefilter != null && segment.isAscii(doc) && !prefilter.occursIn(content)) {
      return Optional.empty();
    }
    return pattern.firstMatch(content);
  }

  /**
   * A necessary condition for an ASCII query on ASCII content: its bytes occur somewhere in the
   * content (ASCII case-folded when case-insensitive). On ASCII content a line's text is its bytes
   * and root lower-casing is ASCII lower-casing, so a line that matches implies an occurrence; the
   * converse need not hold (an occurrence in an overlong line, or across a stripped CR), which is why
   * a found occurrence is still verified by the pattern.
   *
   * <p>The scan looks for the query's rarest byte (by a fixed table of how common characters are in
   * source code) eight bytes at a time (the SWAR zero-byte test on a {@code long}), and compares the
   * whole query only where that byte occurs.
   */
  static final class Prefilter {
    private static final VarHandle LONGS =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    /** Characters of source code from most to least common; unlisted ones count as rarest. */
    private static final String COMMON = " etaoinsrlcdupmhf(.);,=g_b\"'yw{}v:/k-x0>1*2<j[]qz";

    private final byte[] needle;
    private final boolean caseSensitive;
    private final int anchor;
    private final long anchorLow;
    private final long anchorHigh;

    private Prefilter(byte[] needle, boolean caseSensitive) {
      this.needle = needle;
      this.caseSensitive = caseSensitive;
      int best = 0;
      int bestRank = -1;
      for (int i = 0; i < needle.length; i++) {
        int at = COMMON.indexOf(lower(needle[i]));
        int rank = at < 0 ? COMMON.length() : at;
        if (rank > bestRank) {
          best = i;
          bestRank = rank;
        }
      }
      this.anchor = best;
      int low = needle[best] & 0xFF;
      int high = !caseSensitive && low >= 'a' && low <= 'z' ? low - 32 : low;
      this.anchorLow = low * ONES;
      this.anchorHigh = high * ONES;
    }

    static @Nullable Prefilter of(String query, boolean caseSensitive) {
      byte[] needle = new byte[query.length()];
      for (int i = 0; i < query.length(); i++) {
        char c = query.charAt(i);
        if (c >= 0x80) {
          return null;
        }
        needle[i] = (byte) (caseSensitive ? c : lower(c));
      }
      return needle.length == 0 ? null : new Prefilter(needle, caseSensitive);
    }

    boolean occursIn(byte[] content) {
      int last = content.length - needle.length; // the last start of an occurrence
      if (last < 0) {
        return false;
      }
      int end = last + anchor; // the last position of the anchor byte
      int p = anchor;
      for (; p + 7 <= end; p += 8) {
        long x = (long) LONGS.get(content, p);
        long low = x ^ anchorLow;
        long high = x ^ anchorHigh;
        long zero = (((low - ONES) & ~low) | ((high - ONES) & ~high)) & HIGHS;
        while (zero != 0) {
          int k = Long.numberOfTrailingZeros(zero) >>> 3;
          if (matchesAt(content, p + k - anchor)) {
            return true;
          }
          zero &= zero - 1;
        }
      }
      for (; p <= end; p++) {
        if (matchesAt(content, p - anchor)) {
          return true;
        }
      }
      return false;
    }

    private boolean matchesAt(byte[] content, int start) {
      for (int k = 0; k < needle.length; k++) {
        byte b = content[start + k];
        if ((caseSensitive ? b : lower(b)) != needle[k]) {
          return false;
        }
      }
      return true;
    }

    private static int lower(int c) {
      return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }
  }

  /** A content hit; a line over {@code maxLineBytes} is served as its window around the match. */
  private static IndexSearchHit contentHit(String path, double score,
      LiteralPattern.LineMatch match, int maxLineBytes) {
    return new IndexSearchHit(path, score,
        LiteralPattern.window(match.text(), match.column(), maxLineBytes), match.line(),
        match.line(), match.column());
  }

  static void checkAbort(AbortSignal signal) {
    if (signal.isAborted()) {
      throw new CancellationException("index query aborted");
    }
  }

  /** Walks per-segment ascending document lists merged in path order. */
  private static final class Walk {
    private final List<SegmentView> views;
    private final int[][] lists;
    private final AbortSignal signal;
    private final PriorityQueue<int[]> queue;
    private final String[] heads;
    private int steps;
    int view;
    int doc;
    String path;

    Walk(List<SegmentView> views, int[][] lists, AbortSignal signal) {
      this.views = views;
      this.lists = lists;
      this.signal = signal;
      this.heads = new String[lists.length];
      // entries are {view, position}; ordered by the head path of the view
      this.queue = new PriorityQueue<>(Math.max(1, lists.length),
          (a, b) -> heads[a[0]].compareTo(heads[b[0]]));
      for (int v = 0; v < lists.length; v++) {
        if (lists[v].length > 0) {
          heads[v] = views.get(v).segment.path(lists[v][0]);
          queue.add(new int[] {v, 0});
        }
      }
    }

    Segment segment() {
      return views.get(view).segment;
    }

    boolean next() {
      if ((++steps & 15) == 0) {
        checkAbort(signal);
      }
      int[] top = queue.poll();
      if (top == null) {
        return false;
      }
      view = top[0];
      doc = lists[view][top[1]];
      path = heads[view];
      int following = top[1] + 1;
      if (following < lists[view].length) {
        heads[view] = views.get(view).segment.path(lists[view][following]);
        top[1] = following;
        queue.add(top);
      }
      return true;
    }
  }
}
