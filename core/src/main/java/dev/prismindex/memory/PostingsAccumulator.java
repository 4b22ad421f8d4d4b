package dev.prismindex.memory;

import java.util.Arrays;

/**
 * Collects {@code (gram key, document)} pairs while a segment is built, documents arriving in
 * ascending order, and writes them as {@link Postings}. Keys map to slots through an open-addressing
 * table; each slot holds a growable {@code int[]} of documents (no boxing).
 */
final class PostingsAccumulator {

  private static final long EMPTY = -1L;

  private long[] table = new long[1 << 12];
  private int[] tableSlots = new int[1 << 12];
  private int mask = table.length - 1;
  private long[] slotKeys = new long[1 << 10];
  private int[][] slotDocs = new int[1 << 10][];
  private int[] slotSizes = new int[1 << 10];
  private int slots;

  PostingsAccumulator() {
    Arrays.fill(table, EMPTY);
  }

  /** Records that {@code doc} contains every key of {@code keys[0..count)} (distinct keys). */
  void addAll(long[] keys, int count, int doc) {
    for (int i = 0; i < count; i++) {
      add(keys[i], doc);
    }
  }

  void add(long key, int doc) {
    int slot = slotOf(key);
    int size = slotSizes[slot];
    int[] docs = slotDocs[slot];
    if (size == docs.length) {
      docs = Arrays.copyOf(docs, size * 2);
      slotDocs[slot] = docs;
    }
    docs[size] = doc;
    slotSizes[slot] = size + 1;
  }

  private int slotOf(long key) {
    int at = LongHashSet.mix(key) & mask;
    while (true) {
      long existing = table[at];
      if (existing == key) {
        return tableSlots[at];
      }
      if (existing == EMPTY) {
        int slot = newSlot(key);
        table[at] = key;
        tableSlots[at] = slot;
        if (slots * 2 > table.length) {
          rehash();
        }
        return slot;
      }
      at = (at + 1) & mask;
    }
  }

  private int newSlot(long key) {
    if (slots == slotKeys.length) {
      int grown = slots * 2;
      slotKeys = Arrays.copyOf(slotKeys, grown);
      slotDocs = Arrays.copyOf(slotDocs, grown);
      slotSizes = Arrays.copyOf(slotSizes, grown);
    }
    slotKeys[slots] = key;
    slotDocs[slots] = new int[2];
    return slots++;
  }

  private void rehash() {
    table = new long[table.length * 2];
    tableSlots = new int[table.length];
    Arrays.fill(table, EMPTY);
    mask = table.length - 1;
    for (int slot = 0; slot < slots; slot++) {
      int at = LongHashSet.mix(slotKeys[slot]) & mask;
      while (table[at] != EMPTY) {
        at = (at + 1) & mask;
      }
      table[at] = slotKeys[slot];
      tableSlots[at] = slot;
    }
  }

  /** Writes the postings of a segment of {@code docCount} documents. */
  Postings build(int docCount) {
    long[] sorted = Arrays.copyOf(slotKeys, slots);
    Arrays.sort(sorted);
    PostingsWriter writer = new PostingsWriter(docCount, slots);
    for (long key : sorted) {
      int slot = slotOf(key);
      writer.add(key, slotDocs[slot], slotSizes[slot]);
    }
    return writer.build();
  }
}
