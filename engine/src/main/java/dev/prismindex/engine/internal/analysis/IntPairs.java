package dev.prismindex.engine.internal.analysis;

import java.util.Arrays;

/**
 * A growable list of pairs of ints in two parallel arrays (a token's bounds, a token's end and
 * count, an identifier and its count): the analysis classes' buffers, reused from text to text.
 * Not thread-safe.
 */
final class IntPairs {

  private int[] first;
  private int[] second;
  private int size;

  IntPairs(int capacity) {
    first = new int[capacity];
    second = new int[capacity];
  }

  int size() {
    return size;
  }

  /** Forgets every pair (the arrays stay). */
  void clear() {
    size = 0;
  }

  /** Appends the pair {@code (a, b)}; returns its index. */
  int add(int a, int b) {
    if (size == first.length) {
      first = Arrays.copyOf(first, size * 2);
      second = Arrays.copyOf(second, size * 2);
    }
    first[size] = a;
    second[size] = b;
    return size++;
  }

  int first(int i) {
    return first[i];
  }

  int second(int i) {
    return second[i];
  }

  /** Adds {@code delta} to the second int of pair {@code i}. */
  void addToSecond(int i, int delta) {
    second[i] += delta;
  }

  /** The first ints, a copy of exactly {@link #size} of them. */
  int[] firsts() {
    return Arrays.copyOf(first, size);
  }

  /** The second ints, a copy of exactly {@link #size} of them. */
  int[] seconds() {
    return Arrays.copyOf(second, size);
  }
}
