package dev.prismindex.memory;

import dev.prismindex.embed.Embedder;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Answers {@code semantic}: the query's vector against every live file vector in scope (an exact
 * scan of int8 rows, no approximate graph), keeping the best {@code maxResults} in a bounded heap.
 *
 * <p><b>Score and order.</b> The score is the cosine similarity of the query and file vectors (both
 * unit length), from the quantised values and clamped to [0, 1]; files with a similarity of zero or
 * less do not match. Hits are ordered by score, then by path; {@code truncated} is set exactly when
 * more files have a positive similarity than were returned.
 *
 * <p><b>Location.</b> A file has one vector, so the hit's line is chosen lexically: the first line
 * sharing the most query words (letters and digits, lower-cased, two or more characters), as line
 * and snippet. When no line shares a word, the hit is the whole file: {@code line} is its first
 * non-blank line (the snippet), {@code endLine} its last line.
 */
final class MemorySemanticSearcher {

  private MemorySemanticSearcher() {}

  static IndexQueryResult search(Snapshot snapshot, IndexQuery query, Embedder embedder,
      int maxLineBytes) {
    AbortSignal signal = query.signal();
    int dimension = embedder.dimension();
    float[] vector = embedder.embedQuery(query.query());
    if (vector == null || vector.length != dimension) {
      throw new IllegalStateException(
          "embedder " + embedder.id() + " returned a query vector of the wrong dimension");
    }
    byte[] quantised = new byte[dimension];
    float queryScale = VectorStore.quantise(vector, quantised);
    if (queryScale == 0) {
      return new IndexQueryResult(List.of(), false);
    }
    List<SegmentView> views = snapshot.views;
    TopK top = new TopK(query.maxResults(), views);
    long positives = 0;
    for (int v = 0; v < views.size(); v++) {
      SegmentView view = views.get(v);
      VectorStore store = view.segment.vectors();
      if (store == null || view.liveCount == 0) {
        continue;
      }
      Scope.Range scope = Scope.of(view.segment, query.scope());
      if (scope.exact() >= 0) {
        positives += offer(top, view, store, v, scope.exact(), quantised, queryScale);
      }
      for (int doc = scope.from(); doc < scope.to(); doc++) {
        if ((doc & 1023) == 0) {
          MemoryLiteralSearcher.checkAbort(signal);
        }
        positives += offer(top, view, store, v, doc, quantised, queryScale);
      }
    }
    long[] ranked = new long[top.size()];
    float[] rankedScores = new float[ranked.length];
    top.drainBestFirst(ranked, rankedScores);
    Set<String> words = words(query.query());
    List<IndexSearchHit> hits = new ArrayList<>(ranked.length);
    for (int i = 0; i < ranked.length; i++) {
      MemoryLiteralSearcher.checkAbort(signal);
      long entry = ranked[i];
      int v = (int) (entry >>> 32);
      int doc = (int) entry;
      Segment segment = views.get(v).segment;
      String path = segment.path(doc);
      double score = Math.min(1.0, Math.max(0.0, rankedScores[i]));
      hits.add(locate(path, score, segment.content(doc), words, maxLineBytes));
    }
    return new IndexQueryResult(List.copyOf(hits), positives > hits.size());
  }

  private static int offer(TopK top, SegmentView view, VectorStore store, int v, int doc,
      byte[] quantised, float queryScale) {
    if (!view.isLive(doc)) {
      return 0;
    }
    int dot = store.dot(doc, quantised);
    if (dot <= 0) {
      return 0;
    }
    float score = dot * queryScale * store.scale(doc);
    if (!(score > 0)) {
      return 0;
    }
    top.offer(score, ((long) v << 32) | doc);
    return 1;
  }

  static Set<String> words(String query) {
    Set<String> words = new LinkedHashSet<>();
    for (String word : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (word.length() >= 2) {
        words.add(word);
      }
    }
    return words;
  }

  private static IndexSearchHit locate(String path, double score, byte[] content, Set<String> words,
      int maxLineBytes) {
    int[] best = {0, 0, 0, 0}; // best line, its word count, first non-blank line, last line
    String[] text = {null, null};
    LiteralPattern.forEachLine(content, maxLineBytes, (line, lineText, bytes) -> {
      best[3] = line;
      if (lineText == null) {
        return true;
      }
      if (best[2] == 0 && !lineText.isBlank()) {
        best[2] = line;
        text[1] = lineText;
      }
      if (!words.isEmpty()) {
        String lowered = lineText.toLowerCase(Locale.ROOT);
        int found = 0;
        for (String word : words) {
          if (lowered.contains(word)) {
            found++;
          }
        }
        if (found > best[1]) {
          best[0] = line;
          best[1] = found;
          text[0] = lineText;
        }
      }
      return true;
    });
    if (text[0] != null) {
      return new IndexSearchHit(path, score, text[0], best[0], best[0], 0);
    }
    if (text[1] != null) {
      return new IndexSearchHit(path, score, text[1], best[2], Math.max(best[2], best[3]), 0);
    }
    return new IndexSearchHit(path, score, path, 0, 0, 0);
  }

  /**
   * A bounded min-heap of {@code (score, view << 32 | doc)} keeping the {@code k} best, where better
   * means a higher score, then a smaller path.
   */
  static final class TopK {
    private final int capacity;
    private final List<SegmentView> views;
    private final float[] scores;
    private final long[] ids;
    private int size;

    TopK(int capacity, List<SegmentView> views) {
      this.capacity = capacity;
      this.views = views;
      this.scores = new float[capacity];
      this.ids = new long[capacity];
    }

    void offer(float score, long id) {
      if (size < capacity) {
        scores[size] = score;
        ids[size] = id;
        siftUp(size++);
      } else if (better(score, id, scores[0], ids[0])) {
        scores[0] = score;
        ids[0] = id;
        siftDown(0);
      }
    }

    /** Empties the heap into {@code outIds} and {@code outScores}, best first; returns the count. */
    int drainBestFirst(long[] outIds, float[] outScores) {
      int n = size;
      for (int i = n - 1; i >= 0; i--) {
        outIds[i] = ids[0];
        outScores[i] = scores[0];
        size--;
        scores[0] = scores[size];
        ids[0] = ids[size];
        siftDown(0);
      }
      return n;
    }

    int size() {
      return size;
    }

    private boolean better(float scoreA, long idA, float scoreB, long idB) {
      if (scoreA != scoreB) {
        return scoreA > scoreB;
      }
      return path(idA).compareTo(path(idB)) < 0;
    }

    private String path(long id) {
      return views.get((int) (id >>> 32)).segment.path((int) id);
    }

    private void siftUp(int i) {
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (!better(scores[parent], ids[parent], scores[i], ids[i])) {
          break;
        }
        swap(i, parent);
        i = parent;
      }
    }

    private void siftDown(int i) {
      while (true) {
        int left = 2 * i + 1;
        if (left >= size) {
          return;
        }
        int worst = left;
        int right = left + 1;
        if (right < size && better(scores[left], ids[left], scores[right], ids[right])) {
          worst = right;
        }
        if (!better(scores[i], ids[i], scores[worst], ids[worst])) {
          return;
        }
        swap(i, worst);
        i = worst;
      }
    }

    private void swap(int a, int b) {
      float score = scores[a];
      scores[a] = scores[b];
      scores[b] = score;
      long id = ids[a];
      ids[a] = ids[b];
      ids[b] = id;
    }
  }
}
