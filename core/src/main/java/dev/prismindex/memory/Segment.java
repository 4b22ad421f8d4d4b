package dev.prismindex.memory;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * An immutable batch of indexed files, sorted by path in {@link String} order, so that a document id
 * is also a rank in path order and every scope is a contiguous range of ids.
 *
 * <p>Per document it holds the path (bytes of {@link PathCodec}, in one array with start offsets),
 * the file content (the UTF-8 bytes as read, shared, never copied or decoded into a {@code String}),
 * the first 16 bytes of its SHA-256, its content and path grams ({@link Postings}) and, when the
 * index is semantic, its quantised vector ({@link VectorStore}). Deleted documents are not marked
 * here but in the {@link SegmentView} that a snapshot holds, so deleting never copies a segment.
 */
final class Segment {

  static final int HASH_BYTES = 16;

  private final int docCount;
  private final byte[] pathData;
  private final int[] pathStarts;
  private final byte[][] contents;
  private final byte[] hashes;
  private final Postings contentGrams;
  private final Postings pathGrams;
  private final @Nullable VectorStore vectors;
  private final long contentBytes;
  /**
   * One bit per document, set when its content is pure ASCII (see {@code MemoryLiteralSearcher}).
   */
  private final long[] ascii;

  Segment(byte[] pathData, int[] pathStarts, byte[][] contents, byte[] hashes,
      Postings contentGrams, Postings pathGrams, @Nullable VectorStore vectors) {
    this.docCount = contents.length;
    this.pathData = pathData;
    this.pathStarts = pathStarts;
    this.contents = contents;
    this.hashes = hashes;
    this.contentGrams = contentGrams;
    this.pathGrams = pathGrams;
    this.vectors = vectors;
    long bytes = 0;
    this.ascii = new long[(docCount + 63) >>> 6];
    for (int doc = 0; doc < docCount; doc++) {
      bytes += contents[doc].length;
      if (GramKeys.isAscii(contents[doc])) {
        ascii[doc >>> 6] |= 1L << doc;
      }
    }
    this.contentBytes = bytes;
  }

  /** Whether the content of {@code doc} is pure ASCII. */
  boolean isAscii(int doc) {
    return (ascii[doc >>> 6] & (1L << doc)) != 0;
  }

  int docCount() {
    return docCount;
  }

  String path(int doc) {
    return PathCodec.decode(pathData, pathStarts[doc], pathStarts[doc + 1]);
  }

  int comparePath(int doc, String path) {
    return PathCodec.compare(pathData, pathStarts[doc], pathStarts[doc + 1], path);
  }

  /** Copies the encoded path of {@code doc} to {@code out[at..]}; returns the offset after it. */
  int copyPath(int doc, byte[] out, int at) {
    int length = pathStarts[doc + 1] - pathStarts[doc];
    System.arraycopy(pathData, pathStarts[doc], out, at, length);
    return at + length;
  }

  int pathLength(int doc) {
    return pathStarts[doc + 1] - pathStarts[doc];
  }

  /** The document whose path is {@code path}, or -1. */
  int find(String path) {
    int lo = 0;
    int hi = docCount - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int cmp = comparePath(mid, path);
      if (cmp < 0) {
        lo = mid + 1;
      } else if (cmp > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /** The first document whose path is {@code >= path}. */
  int lowerBound(String path) {
    int lo = 0;
    int hi = docCount;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (comparePath(mid, path) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  byte[] content(int doc) {
    return contents[doc];
  }

  boolean hashEquals(int doc, byte[] hash) {
    return Arrays.equals(hashes, doc * HASH_BYTES, (doc + 1) * HASH_BYTES, hash, 0, HASH_BYTES);
  }

  void copyHash(int doc, byte[] out, int at) {
    System.arraycopy(hashes, doc * HASH_BYTES, out, at, HASH_BYTES);
  }

  Postings contentGrams() {
    return contentGrams;
  }

  Postings pathGrams() {
    return pathGrams;
  }

  @Nullable VectorStore vectors() {
    return vectors;
  }

  long contentBytes() {
    return contentBytes;
  }

  long pathBytes() {
    return 16L + pathData.length + 16L + 4L * pathStarts.length;
  }

  long postingBytes() {
    return contentGrams.byteSize() + pathGrams.byteSize();
  }

  long vectorBytes() {
    return vectors == null ? 0 : vectors.byteSize();
  }

  /** Bytes held, counting 16-byte array headers and padding of each content array. */
  long byteSize() {
    long contentArrays = 16L + 4L * docCount + ((contentBytes + 7L * docCount) & ~7L)
        + 16L * docCount;
    return contentArrays + pathBytes() + 16L + hashes.length + 16L + 8L * ascii.length
        + postingBytes() + vectorBytes();
  }
}
