package dev.prismindex.memory;

import dev.prismindex.embed.Embedder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Writes segments: a new one from the files of an update batch, or a merged one from live documents
 * of existing segments (remapping postings and copying quantised vectors, never re-reading,
 * re-tokenising or re-embedding content).
 */
final class SegmentWriter {

  /** The longest prefix of a file (in bytes) that is embedded, after its path. */
  static final int EMBED_PREFIX_BYTES = 16 * 1024;

  private static final int EMBED_BATCH = 128;
  private static final int GRAM_CHUNK = 64;
  static final int PARALLEL_MIN_DOCS = 128;

  /** A file to index: its canonical path, content and content hash. */
  record NewDoc(String path, byte[] content, byte[] hash) {}

  private SegmentWriter() {}

  /** The text a file's vector is computed from: its path, a newline, and the start of its content. */
  static String embeddingText(String path, byte[] content) {
    int length = Math.min(content.length, EMBED_PREFIX_BYTES);
    return path + "\n" + new String(content, 0, length, StandardCharsets.UTF_8);
  }

  /**
   * Builds a segment from {@code docs}, which must be sorted by path and have distinct paths. The
   * per-file work (gram extraction, embedding) of a batch of at least {@value #PARALLEL_MIN_DOCS}
   * files is spread over the common fork-join pool, in chunks; postings are then assembled in
   * document order on the calling thread, so the result does not depend on scheduling.
   */
  static Segment write(List<NewDoc> docs, @Nullable Embedder embedder) {
    int n = docs.size();
    int pathBytes = 0;
    for (NewDoc doc : docs) {
      pathBytes += PathCodec.encodedLength(doc.path());
    }
    long[][] contentKeys = new long[n][];
    long[][] pathKeys = new long[n][];
    forEachChunk(n, GRAM_CHUNK, (from, to) -> {
      GramKeys grams = new GramKeys();
      for (int i = from; i < to; i++) {
        contentKeys[i] = grams.content(docs.get(i).content());
        pathKeys[i] = grams.path(docs.get(i).path());
      }
    });
    float[][] vectors = embedder == null ? null : embed(docs, embedder);
    byte[] pathData = new byte[pathBytes];
    int[] pathStarts = new int[n + 1];
    byte[][] contents = new byte[n][];
    byte[] hashes = new byte[n * Segment.HASH_BYTES];
    PostingsAccumulator contentGrams = new PostingsAccumulator();
    PostingsAccumulator pathGrams = new PostingsAccumulator();
    int at = 0;
    for (int i = 0; i < n; i++) {
      NewDoc doc = docs.get(i);
      pathStarts[i] = at;
      at = PathCodec.encode(doc.path(), pathData, at);
      contents[i] = doc.content();
      System.arraycopy(doc.hash(), 0, hashes, i * Segment.HASH_BYTES, Segment.HASH_BYTES);
      contentGrams.addAll(contentKeys[i], contentKeys[i].length, i);
      contentKeys[i] = null;
      pathGrams.addAll(pathKeys[i], pathKeys[i].length, i);
      pathKeys[i] = null;
    }
    pathStarts[n] = at;
    VectorStore store = null;
    if (vectors != null) {
      int dimension = embedder.dimension();
      VectorStore.Builder builder = new VectorStore.Builder(dimension, n);
      byte[] row = new byte[dimension];
      for (float[] vector : vectors) {
        builder.add(row, VectorStore.quantise(vector, row));
      }
      store = builder.build();
    }
    return new Segment(pathData, pathStarts, contents, hashes, contentGrams.build(n),
        pathGrams.build(n), store);
  }

  private static float[][] embed(List<NewDoc> docs, Embedder embedder) {
    int dimension = embedder.dimension();
    float[][] out = new float[docs.size()][];
    forEachChunk(docs.size(), EMBED_BATCH, (from, to) -> {
      List<String> texts = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        texts.add(embeddingText(docs.get(i).path(), docs.get(i).content()));
      }
      List<float[]> vectors = embedder.embed(texts);
      if (vectors == null || vectors.size() != texts.size()) {
        throw new IllegalStateException("embedder " + embedder.id() + " returned "
            + (vectors == null ? "no list" : vectors.size() + " vectors") + " for "
            + texts.size() + " texts");
      }
      for (int i = from; i < to; i++) {
        float[] vector = vectors.get(i - from);
        if (vector == null || vector.length != dimension) {
          throw new IllegalStateException(
              "embedder " + embedder.id() + " returned a vector of the wrong dimension");
        }
        out[i] = vector;
      }
    });
    return out;
  }

  /** Work on the document range {@code [from, to)}. */
  private interface Chunk {
    void run(int from, int to);
  }

  private static void forEachChunk(int n, int size, Chunk chunk) {
    int chunks = (n + size - 1) / size;
    if (n < PARALLEL_MIN_DOCS || chunks < 2) {
      for (int c = 0; c < chunks; c++) {
        chunk.run(c * size, Math.min(n, (c + 1) * size));
      }
      return;
    }
    IntStream.range(0, chunks).parallel()
        .forEach(c -> chunk.run(c * size, Math.min(n, (c + 1) * size)));
  }

  /**
   * Merges the live documents of {@code views} into one segment, in path order. A path is live in at
   * most one view, so paths stay distinct.
   */
  static Segment merge(List<SegmentView> views, boolean withVectors, int dimension) {
    int viewCount = views.size();
    int[][] newIds = new int[viewCount][];
    int total = 0;
    for (int v = 0; v < viewCount; v++) {
      SegmentView view = views.get(v);
      newIds[v] = new int[view.segment.docCount()];
      Arrays.fill(newIds[v], -1);
      total += view.liveCount;
    }
    // k-way merge of the live documents by path
    PriorityQueue<Cursor> queue =
        new PriorityQueue<>(Math.max(1, viewCount), (a, b) -> a.path().compareTo(b.path()));
    for (int v = 0; v < viewCount; v++) {
      Cursor first = next(views.get(v), v, 0);
      if (first != null) {
        queue.add(first);
      }
    }
    int[] mergedView = new int[total];
    int[] mergedDoc = new int[total];
    int pathBytes = 0;
    int id = 0;
    while (!queue.isEmpty()) {
      Cursor cursor = queue.poll();
      SegmentView view = views.get(cursor.view());
      mergedView[id] = cursor.view();
      mergedDoc[id] = cursor.doc();
      newIds[cursor.view()][cursor.doc()] = id++;
      pathBytes += view.segment.pathLength(cursor.doc());
      Cursor following = next(view, cursor.view(), cursor.doc() + 1);
      if (following != null) {
        queue.add(following);
      }
    }
    byte[] pathData = new byte[pathBytes];
    int[] pathStarts = new int[total + 1];
    byte[][] contents = new byte[total][];
    byte[] hashes = new byte[total * Segment.HASH_BYTES];
    VectorStore.Builder vectors = withVectors ? new VectorStore.Builder(dimension, total) : null;
    byte[] row = new byte[dimension];
    int at = 0;
    for (int i = 0; i < total; i++) {
      Segment source = views.get(mergedView[i]).segment;
      int doc = mergedDoc[i];
      pathStarts[i] = at;
      at = source.copyPath(doc, pathData, at);
      contents[i] = source.content(doc);
      source.copyHash(doc, hashes, i * Segment.HASH_BYTES);
      if (vectors != null) {
        VectorStore store = source.vectors();
        if (store == null) {
          throw new IllegalStateException("segment without vectors in a semantic index");
        }
        store.copyRow(doc, row);
        vectors.add(row, store.scale(doc));
      }
    }
    pathStarts[total] = at;
    List<Postings> contentLists = new ArrayList<>(viewCount);
    List<Postings> pathLists = new ArrayList<>(viewCount);
    for (SegmentView view : views) {
      contentLists.add(view.segment.contentGrams());
      pathLists.add(view.segment.pathGrams());
    }
    return new Segment(pathData, pathStarts, contents, hashes,
        mergePostings(contentLists, newIds, total), mergePostings(pathLists, newIds, total),
        vectors == null ? null : vectors.build());
  }

  private static @Nullable Cursor next(SegmentView view, int v, int from) {
    for (int doc = from; doc < view.segment.docCount(); doc++) {
      if (view.isLive(doc)) {
        return new Cursor(v, doc, view.segment.path(doc));
      }
    }
    return null;
  }

  private static Postings mergePostings(List<Postings> inputs, int[][] newIds, int total) {
    int count = inputs.size();
    int[] positions = new int[count];
    int maxList = 1;
    int keys = 0;
    for (Postings input : inputs) {
      maxList = Math.max(maxList, input.docCount());
      keys = Math.max(keys, input.size());
    }
    int[] decoded = new int[maxList];
    int[] merged = new int[Math.max(1, total)];
    PostingsWriter writer = new PostingsWriter(total, keys);
    while (true) {
      long key = Long.MAX_VALUE;
      for (int i = 0; i < count; i++) {
        Postings input = inputs.get(i);
        if (positions[i] < input.size()) {
          key = Math.min(key, input.key(positions[i]));
        }
      }
      if (key == Long.MAX_VALUE) {
        break;
      }
      int size = 0;
      boolean sorted = true;
      for (int i = 0; i < count; i++) {
        Postings input = inputs.get(i);
        if (positions[i] < input.size() && input.key(positions[i]) == key) {
          int n = input.decode(positions[i], decoded);
          int[] map = newIds[i];
          for (int j = 0; j < n; j++) {
            int mapped = map[decoded[j]];
            if (mapped >= 0) {
              if (size > 0 && mapped < merged[size - 1]) {
                sorted = false;
              }
              merged[size++] = mapped;
            }
          }
          positions[i]++;
        }
      }
      if (!sorted) {
        Arrays.sort(merged, 0, size);
      }
      writer.add(key, merged, size);
    }
    return writer.build();
  }

  private record Cursor(int view, int doc, String path) {}
}
