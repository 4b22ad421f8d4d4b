package dev.prismindex.engine.internal.analysis;

import java.nio.CharBuffer;
import java.util.Arrays;
import org.apache.lucene.util.UnicodeUtil;

/**
 * What {@link ChunkTerms} makes of each identifier, remembered: its code tokens ({@link
 * IdentifierTokens}) and its prose terms ({@link ProseWords}: stop words dropped, the rest
 * stemmed), each token in UTF-8, the form the index writer takes. The identifiers of code repeat
 * from chunk to chunk and file to file, and splitting one costs more than finding it again. Per
 * instance (one thread); forgotten as a whole, between two texts, once it holds {@value #CAPACITY}
 * identifiers or {@value #MAX_BYTES} bytes of tokens.
 */
final class IdentifierMemory {

  static final int CAPACITY = 1 << 13;
  static final int MAX_BYTES = 1 << 18;

  private final IdentifierTokens split = new IdentifierTokens();
  private final ProseWords prose = new ProseWords();

  /** The identifiers remembered: entry {@code e} is {@code keys[keyStart[e], +keyLength[e])}. */
  private char[] keys = new char[1 << 14];
  private int keysUsed;
  private int[] keyStart = new int[1024];
  private int[] keyLength = new int[1024];
  private int[] keyHash = new int[1024];
  /**
   * Entry {@code e}'s code tokens are tokens {@code [codeFrom[e], proseFrom[e])}, its prose terms
   * {@code [proseFrom[e], proseTo[e])}.
   */
  private int[] codeFrom = new int[1024];
  private int[] proseFrom = new int[1024];
  private int[] proseTo = new int[1024];
  private int entries;
  /** Open addressing over the entries: entry + 1, 0 when free. */
  private int[] slots = new int[2048];

  /** The tokens: token {@code t} is {@code bytes} between its two {@code bounds}, UTF-8. */
  private byte[] bytes = new byte[1 << 14];
  private int bytesUsed;
  private final IntPairs bounds = new IntPairs(4096);

  /** Forgets everything when full; call between texts only (entries stay valid within a text). */
  void trim() {
    if (entries >= CAPACITY || bytesUsed >= MAX_BYTES) {
      Arrays.fill(slots, 0);
      entries = 0;
      keysUsed = 0;
      bounds.clear();
      bytesUsed = 0;
    }
  }

  /**
   * The entry of the identifier {@code identifier[0, length)}, split and remembered when new. An
   * entry stays the same until the memory is forgotten ({@link #trim}).
   */
  int entry(char[] identifier, int length) {
    int hash = 0;
    for (int i = 0; i < length; i++) {
      hash = 31 * hash + identifier[i];
    }
    int mask = slots.length - 1;
    int s = mix(hash) & mask;
    for (; slots[s] != 0; s = (s + 1) & mask) {
      int e = slots[s] - 1;
      if (keyHash[e] == hash && keyLength[e] == length && Arrays.equals(keys, keyStart[e],
          keyStart[e] + length, identifier, 0, length)) {
        return e;
      }
    }
    int e = remember(identifier, length, hash);
    slots[s] = e + 1;
    if (entries * 2 > slots.length) {
      rehash();
    }
    return e;
  }

  int codeFrom(int entry) {
    return codeFrom[entry];
  }

  int proseFrom(int entry) {
    return proseFrom[entry];
  }

  int proseTo(int entry) {
    return proseTo[entry];
  }

  /** The UTF-8 bytes of all tokens (token {@code t}: {@link #start} to {@link #end}). */
  byte[] bytes() {
    return bytes;
  }

  int start(int token) {
    return bounds.first(token);
  }

  int end(int token) {
    return bounds.second(token);
  }

  private int remember(char[] identifier, int length, int hash) {
    if (entries == keyStart.length) {
      int grown = entries * 2;
      keyStart = Arrays.copyOf(keyStart, grown);
      keyLength = Arrays.copyOf(keyLength, grown);
      keyHash = Arrays.copyOf(keyHash, grown);
      codeFrom = Arrays.copyOf(codeFrom, grown);
      proseFrom = Arrays.copyOf(proseFrom, grown);
      proseTo = Arrays.copyOf(proseTo, grown);
    }
    if (keysUsed + length > keys.length) {
      keys = Arrays.copyOf(keys, Math.max(keysUsed + length, keys.length * 2));
    }
    System.arraycopy(identifier, 0, keys, keysUsed, length);
    int e = entries++;
    keyStart[e] = keysUsed;
    keyLength[e] = length;
    keyHash[e] = hash;
    keysUsed += length;
    codeFrom[e] = bounds.size();
    split.analyse(identifier, 0, length, false);
    for (int t = 0; t < split.count(); t++) {
      token(split.chars(), split.start(t), split.end(t) - split.start(t));
    }
    proseFrom[e] = bounds.size();
    split.analyse(identifier, 0, length, true);
    char[] words = split.chars();
    for (int t = 0; t < split.count(); t++) {
      char[] term = prose.term(words, split.start(t), split.end(t) - split.start(t));
      if (term != null) {
        token(term, 0, term.length);
      }
    }
    proseTo[e] = bounds.size();
    return e;
  }

  /** Remembers a token, in UTF-8 (an unpaired surrogate as U+FFFD, as the index writer has it). */
  private void token(char[] source, int from, int length) {
    int most = length * 3; // UTF-8 bytes per UTF-16 unit, at most
    if (bytesUsed + most > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytesUsed + most, bytes.length * 2));
    }
    int start = bytesUsed;
    int i = 0;
    while (i < length && source[from + i] < 0x80) {
      bytes[bytesUsed++] = (byte) source[from + i++];
    }
    if (i < length) {
      bytesUsed = UnicodeUtil.UTF16toUTF8(CharBuffer.wrap(source, from + i, length - i), 0,
          length - i, bytes, bytesUsed);
    }
    bounds.add(start, bytesUsed);
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    int mask = slots.length - 1;
    for (int e = 0; e < entries; e++) {
      int s = mix(keyHash[e]) & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = e + 1;
    }
  }

  private static int mix(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
