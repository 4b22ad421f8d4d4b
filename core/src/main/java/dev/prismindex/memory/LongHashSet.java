package dev.prismindex.memory;

import java.util.Arrays;

/**
 * An open-addressing set of non-negative {@code long}s (gram keys), reused across documents: {@link
 * #clear()} keeps the table. Not thread-safe.
 */
final class LongHashSet {

  private static final long EMPTY = -1L;

  private long[] table;
  private int size;
  private int mask;

  LongHashSet(int expected) {
    int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    table = new long[capacity];
    Arrays.fill(table, EMPTY);
    mask = capacity - 1;
  }

  /** Adds a key ({@code >= 0}); returns whether it was new. */
  boolean add(long key) {
    int slot = mix(key) & mask;
    while (true) {
      long existing = table[slot];
      if (existing == EMPTY) {
        table[slot] = key;
        if (++size * 2 > table.length) {
          grow();
        }
        return true;
      }
      if (existing == key) {
        return false;
      }
      slot = (slot + 1) & mask;
    }
  }

  int size() {
    return size;
  }

  /** Copies the keys into a new array, in no particular order. */
  long[] toArray() {
    long[] out = new long[size];
    int n = 0;
    for (long key : table) {
      if (key != EMPTY) {
        out[n++] = key;
      }
    }
    return out;
  }

  void clear() {
    if (size > 0) {
      if (table.length > 1 << 16) {
        // a huge document grew the table; do not keep it for every later one
        table = new long[1 << 12];
        mask = table.length - 1;
      }
      Arrays.fill(table, EMPTY);
      size = 0;
    }
  }

  private void grow() {
    long[] old = table;
    table = new long[old.length * 2];
    Arrays.fill(table, EMPTY);
    mask = table.length - 1;
    size = 0;
    for (long key : old) {
      if (key != EMPTY) {
        add(key);
      }
    }
  }

  static int mix(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
