package dev.prismindex.memory;

import java.util.Arrays;

/** Writes {@link Postings} list by list, in ascending key order. */
final class PostingsWriter {

  private final int docCount;
  private final int threshold;
  private long[] keys;
  private int[] counts;
  private int[] offsets;
  private byte[] data;
  private int size;
  private int length;

  PostingsWriter(int docCount, int expectedKeys) {
    this.docCount = docCount;
    this.threshold = Postings.bitsetThreshold(docCount);
    int capacity = Math.max(16, expectedKeys);
    keys = new long[capacity];
    counts = new int[capacity];
    offsets = new int[capacity + 1];
    data = new byte[Math.max(64, expectedKeys * 4)];
  }

  /** Appends the list of {@code key}: the ascending, distinct {@code docs[0..count)}. */
  void add(long key, int[] docs, int count) {
    if (count == 0) {
      return;
    }
    if (size == keys.length) {
      int grown = size * 2;
      keys = Arrays.copyOf(keys, grown);
      counts = Arrays.copyOf(counts, grown);
      offsets = Arrays.copyOf(offsets, grown + 1);
    }
    keys[size] = key;
    counts[size] = count;
    offsets[size] = length;
    if (count >= threshold) {
      int bytes = (docCount + 7) >>> 3;
      ensure(bytes);
      for (int i = 0; i < count; i++) {
        int doc = docs[i];
        data[length + (doc >>> 3)] |= (byte) (1 << (doc & 7));
      }
      length += bytes;
    } else {
      ensure(count * 5);
      int previous = 0;
      for (int i = 0; i < count; i++) {
        int value = i == 0 ? docs[i] : docs[i] - previous;
        previous = docs[i];
        while ((value & ~0x7F) != 0) {
          data[length++] = (byte) ((value & 0x7F) | 0x80);
          value >>>= 7;
        }
        data[length++] = (byte) value;
      }
    }
    size++;
  }

  private void ensure(int extra) {
    long needed = (long) length + extra;
    if (needed > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("segment postings exceed 2 GiB");
    }
    if (needed > data.length) {
      data = Arrays.copyOf(data, (int) Math.min(Integer.MAX_VALUE - 16,
          Math.max(needed, (long) data.length * 3 / 2)));
    }
  }

  Postings build() {
    offsets[size] = length;
    return new Postings(docCount, Arrays.copyOf(keys, size), Arrays.copyOf(counts, size),
        Arrays.copyOf(offsets, size + 1), Arrays.copyOf(data, length));
  }
}
