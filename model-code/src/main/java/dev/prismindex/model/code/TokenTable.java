package dev.prismindex.model.code;

/**
 * The model's vocabulary: a token's id looked up by its characters, without a string per look-up.
 * Open addressing with linear probing over a power-of-two table at most half full; the tokens'
 * characters are kept end to end in one array. Immutable once built; thread-safe to read.
 */
final class TokenTable {

  private final int[] slots; // id + 1 per slot, 0 when empty
  private final int mask;
  private final int shift;
  private final char[] chars;
  private final int[] starts; // token id's characters: chars[starts[id], starts[id + 1])

  /** @throws IllegalArgumentException when a token repeats; its message names the id */
  TokenTable(String[] tokens) {
    int capacity = Integer.highestOneBit(Math.max(2, tokens.length) * 2 - 1) << 1;
    slots = new int[capacity];
    mask = capacity - 1;
    shift = Integer.numberOfLeadingZeros(mask);
    starts = new int[tokens.length + 1];
    int total = 0;
    for (String t : tokens) {
      total += t.length();
    }
    chars = new char[total];
    for (int id = 0; id < tokens.length; id++) {
      String t = tokens[id];
      t.getChars(0, t.length(), chars, starts[id]);
      starts[id + 1] = starts[id] + t.length();
      char[] key = t.toCharArray();
      int slot = slot(key, key.length);
      while (slots[slot] != 0) {
        if (same(slots[slot] - 1, key, key.length)) {
          throw new IllegalArgumentException("token repeated at id " + id);
        }
        slot = (slot + 1) & mask;
      }
      slots[slot] = id + 1;
    }
  }

  /** The number of tokens. */
  int size() {
    return starts.length - 1;
  }

  /** The id of the token {@code word[0, length)}, or -1 when it is not in the vocabulary. */
  int id(char[] word, int length) {
    int slot = slot(word, length);
    for (int s = slots[slot]; s != 0; s = slots[slot]) {
      if (same(s - 1, word, length)) {
        return s - 1;
      }
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  /** The token of {@code id}. */
  String token(int id) {
    return new String(chars, starts[id], starts[id + 1] - starts[id]);
  }

  /** The id of {@code token}, or -1. */
  int id(String token) {
    return id(token.toCharArray(), token.length());
  }

  private boolean same(int id, char[] word, int length) {
    int from = starts[id];
    if (starts[id + 1] - from != length) {
      return false;
    }
    for (int i = 0; i < length; i++) { // a loop: tokens are short, and C1 calls Arrays.equals
      if (chars[from + i] != word[i]) {
        return false;
      }
    }
    return true;
  }

  /** The home slot of a word: its polynomial hash, spread by a Fibonacci multiplier. */
  private int slot(char[] word, int length) {
    int h = 0;
    for (int i = 0; i < length; i++) {
      h = 31 * h + word[i];
    }
    return shift == 32 ? 0 : (h * 0x9E3779B9) >>> shift;
  }
}
