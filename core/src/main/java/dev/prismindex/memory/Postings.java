package dev.prismindex.memory;

import java.util.Arrays;

/**
 * The immutable gram postings of one segment field (file content or path): for each gram key, the
 * ascending list of documents that contain it.
 *
 * <p><b>Keys.</b> A key packs three UTF-16 units {@code (c0 << 32) | (c1 << 16) | c2}; keys are sorted,
 * so all keys that start with one or two given units form a contiguous range ({@link #rangeStart},
 * {@link #rangeEnd}), which answers one- and two-character queries without separate postings.
 *
 * <p><b>Lists.</b> All lists share one {@code byte[]}. A list is stored either as a bitset of
 * {@code ceil(docCount / 8)} bytes, when its document count is at least that many bytes (so a bitset
 * is never larger than the alternative), or else as the first document followed by the gaps between
 * documents, each as an unsigned LEB128 varint. The form follows from the count, so no flag is stored.
 * Per key the structure costs 16 bytes (key, count, offset) plus the list itself.
 */
final class Postings {

  static final Postings EMPTY =
      new Postings(0, new long[0], new int[0], new int[] {0}, new byte[0]);

  private final int docCount;
  private final long[] keys;
  private final int[] counts;
  private final int[] offsets;
  private final byte[] data;

  Postings(int docCount, long[] keys, int[] counts, int[] offsets, byte[] data) {
    this.docCount = docCount;
    this.keys = keys;
    this.counts = counts;
    this.offsets = offsets;
    this.data = data;
  }

  static long key(int c0, int c1, int c2) {
    return ((long) c0 << 32) | ((long) c1 << 16) | c2;
  }

  /** The smallest document count stored as a bitset, for a segment of {@code docCount} documents. */
  static int bitsetThreshold(int docCount) {
    return Math.max(1, (docCount + 7) >>> 3);
  }

  int docCount() {
    return docCount;
  }

  int size() {
    return keys.length;
  }

  long key(int index) {
    return keys[index];
  }

  /** The index of {@code key}, or -1. */
  int find(long key) {
    int at = Arrays.binarySearch(keys, key);
    return at < 0 ? -1 : at;
  }

  /** The first index whose key is {@code >= key}. */
  int rangeStart(long key) {
    int at = Arrays.binarySearch(keys, key);
    return at < 0 ? -at - 1 : at;
  }

  /** The first index whose key is {@code > key}. */
  int rangeEnd(long key) {
    int at = Arrays.binarySearch(keys, key);
    return at < 0 ? -at - 1 : at + 1;
  }

  int count(int index) {
    return counts[index];
  }

  boolean isBitset(int index) {
    return counts[index] >= bitsetThreshold(docCount);
  }

  /** Whether the bitset list at {@code index} holds {@code doc}. */
  boolean bitsetContains(int index, int doc) {
    return (data[offsets[index] + (doc >>> 3)] & (1 << (doc & 7))) != 0;
  }

  /** Decodes the list at {@code index} into {@code out} (length at least its count). */
  int decode(int index, int[] out) {
    int at = offsets[index];
    int count = counts[index];
    if (isBitset(index)) {
      int n = 0;
      int bytes = (docCount + 7) >>> 3;
      for (int b = 0; b < bytes; b++) {
        int bits = data[at + b] & 0xFF;
        while (bits != 0) {
          int bit = Integer.numberOfTrailingZeros(bits);
          out[n++] = (b << 3) | bit;
          bits &= bits - 1;
        }
      }
      return n;
    }
    DeltaReader reader = new DeltaReader(data, at);
    for (int i = 0; i < count; i++) {
      out[i] = reader.next();
    }
    return count;
  }

  /**
   * Keeps those of the ascending {@code docs[0..n)} that the list at {@code index} holds, in place;
   * returns how many are kept.
   */
  int retain(int index, int[] docs, int n) {
    int kept = 0;
    if (isBitset(index)) {
      for (int i = 0; i < n; i++) {
        if (bitsetContains(index, docs[i])) {
          docs[kept++] = docs[i];
        }
      }
      return kept;
    }
    DeltaReader reader = new DeltaReader(data, offsets[index]);
    int count = counts[index];
    int read = 0;
    int i = 0;
    while (i < n && read < count) {
      int doc = reader.next();
      read++;
      while (i < n && docs[i] < doc) {
        i++;
      }
      if (i < n && docs[i] == doc) {
        docs[kept++] = doc;
        i++;
      }
    }
    return kept;
  }

  /** Sets the bit of every document of the list at {@code index} in {@code bits}. */
  void orInto(int index, long[] bits) {
    if (isBitset(index)) {
      int at = offsets[index];
      int bytes = (docCount + 7) >>> 3;
      for (int b = 0; b < bytes; b++) {
        int value = data[at + b] & 0xFF;
        if (value != 0) {
          bits[b >>> 3] |= (long) value << ((b & 7) << 3);
        }
      }
      return;
    }
    DeltaReader reader = new DeltaReader(data, offsets[index]);
    int count = counts[index];
    for (int i = 0; i < count; i++) {
      int doc = reader.next();
      bits[doc >>> 6] |= 1L << doc;
    }
  }

  /**
   * Reads a delta list: the first document as a varint, then each gap to the previous one (7 bits a
   * byte, low bits first, high bit set on every byte but the last).
   */
  private static final class DeltaReader {
    private final byte[] data;
    private int at;
    private int doc;

    DeltaReader(byte[] data, int at) {
      this.data = data;
      this.at = at;
    }

    /** The next document of the list (the caller reads at most the list's count). */
    int next() {
      int value = 0;
      int shift = 0;
      byte b;
      do {
        b = data[at++];
        value |= (b & 0x7F) << shift;
        shift += 7;
      } while (b < 0);
      doc += value;
      return doc;
    }
  }

  /** Bytes held by this structure (arrays and their headers). */
  long byteSize() {
    return 16L * 4 + 8L * keys.length + 4L * counts.length + 4L * offsets.length + data.length;
  }
}
