package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The index writer's analysis of a chunk: one pass over the text reads its identifiers and counts
 * them ({@link CodeTokenizer}'s scanner), and each distinct identifier is split ({@link
 * IdentifierTokens}) in code mode for the code fields and in words mode, with {@link ProseWords},
 * for the prose field, once per thread while it is remembered ({@link IdentifierMemory}). The
 * tokens are handed over with their counts ({@link CountedTerms}), so the writer gets the same
 * terms, frequencies and norms as from {@link CodeAnalyzer}'s chains over the same text, from about
 * half of the tokens. Not thread-safe: one instance per thread.
 */
public final class ChunkTerms {

  /** The code and prose terms of one text. */
  public record CodeAndProse(CountedTerms code, CountedTerms prose) {}

  /** Reads the identifiers of a text (the tokenizer's own scanner). */
  private final CodeTokenizer tokenizer = new CodeTokenizer();
  /** Splits each distinct identifier, remembering what it made of it. */
  private final IdentifierMemory memory = new IdentifierMemory();

  /** The distinct identifiers of the text: their chars in {@code pool}, in order of appearance. */
  private char[] pool = new char[4096];
  private int poolUsed;
  private int[] starts = new int[256];
  private int[] lengths = new int[256];
  private int[] counts = new int[256];
  private int[] hashes = new int[256];
  private int[] slotOf = new int[256];
  /** The {@link IdentifierMemory} entry of each distinct identifier. */
  private int[] entryOf = new int[256];
  private int identifiers;
  private int occurrences;
  /** Open addressing over the identifiers: index + 1, 0 when free ({@code slotOf} the way back). */
  private int[] slots = new int[1024];

  /** The tokens being collected. */
  private char[] chars = new char[4096];
  private int charsUsed;
  private int[] ends = new int[1024];
  private int[] freqs = new int[1024];
  private int tokens;

  /** The code terms of {@code text} (the fields {@code body}, {@code symbol}, {@code path_text}). */
  public CountedTerms code(String text) {
    count(text);
    return codeTerms();
  }

  /** The code and the prose terms of {@code text} (the fields {@code body} and {@code prose}). */
  public CodeAndProse codeAndProse(String text) {
    count(text);
    return new CodeAndProse(codeTerms(), proseTerms());
  }

  private CountedTerms codeTerms() {
    tokens = 0;
    charsUsed = 0;
    char[] source = memory.chars();
    for (int i = 0; i < identifiers; i++) {
      int e = entryOf[i];
      for (int t = memory.codeFrom(e), to = memory.proseFrom(e); t < to; t++) {
        add(source, memory.start(t), memory.end(t) - memory.start(t), counts[i]);
      }
    }
    return collected(occurrences); // each identifier takes one position, its parts stacked on it
  }

  private CountedTerms proseTerms() {
    tokens = 0;
    charsUsed = 0;
    int length = 0;
    char[] source = memory.chars();
    for (int i = 0; i < identifiers; i++) {
      int e = entryOf[i];
      for (int t = memory.proseFrom(e), to = memory.proseTo(e); t < to; t++) {
        add(source, memory.start(t), memory.end(t) - memory.start(t), counts[i]);
        length += counts[i]; // each word its own position
      }
    }
    return collected(length);
  }

  private void add(char[] source, int from, int length, int count) {
    if (charsUsed + length > chars.length) {
      chars = Arrays.copyOf(chars, Math.max(charsUsed + length, chars.length * 2));
    }
    System.arraycopy(source, from, chars, charsUsed, length);
    charsUsed += length;
    if (tokens == ends.length) {
      ends = Arrays.copyOf(ends, tokens * 2);
      freqs = Arrays.copyOf(freqs, tokens * 2);
    }
    ends[tokens] = charsUsed;
    freqs[tokens] = count;
    tokens++;
  }

  private CountedTerms collected(int fieldLength) {
    return new CountedTerms(Arrays.copyOf(chars, charsUsed), Arrays.copyOf(ends, tokens),
        Arrays.copyOf(freqs, tokens), fieldLength);
  }

  /** Reads the identifiers of {@code text} as {@link CodeTokenizer} does and counts them. */
  private void count(String text) {
    for (int i = 0; i < identifiers; i++) {
      slots[slotOf[i]] = 0;
    }
    identifiers = 0;
    occurrences = 0;
    poolUsed = 0;
    memory.trim();
    tokenizer.setReader(new StringReader(text));
    try (CodeTokenizer reading = tokenizer) { // closed whatever happens: ready for the next text
      reading.reset();
      while (reading.nextIdentifier() >= 0) {
        add(reading.identifier(), reading.identifierLength());
        occurrences++;
      }
      reading.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader never fails
    }
  }

  private void add(char[] identifier, int length) {
    int hash = 0;
    for (int i = 0; i < length; i++) {
      hash = 31 * hash + identifier[i];
    }
    int mask = slots.length - 1;
    for (int s = IdentifierMemory.mix(hash) & mask; ; s = (s + 1) & mask) {
      int i = slots[s] - 1;
      if (i < 0) {
        i = insert(identifier, length, hash);
        slots[s] = i + 1;
        slotOf[i] = s;
        if (identifiers * 2 > slots.length) {
          rehash();
        }
        return;
      }
      if (hashes[i] == hash && lengths[i] == length
          && Arrays.equals(pool, starts[i], starts[i] + length, identifier, 0, length)) {
        counts[i]++;
        return;
      }
    }
  }

  private int insert(char[] identifier, int length, int hash) {
    if (poolUsed + length > pool.length) {
      pool = Arrays.copyOf(pool, Math.max(poolUsed + length, pool.length * 2));
    }
    System.arraycopy(identifier, 0, pool, poolUsed, length);
    if (identifiers == starts.length) {
      int grown = identifiers * 2;
      starts = Arrays.copyOf(starts, grown);
      lengths = Arrays.copyOf(lengths, grown);
      counts = Arrays.copyOf(counts, grown);
      hashes = Arrays.copyOf(hashes, grown);
      slotOf = Arrays.copyOf(slotOf, grown);
      entryOf = Arrays.copyOf(entryOf, grown);
    }
    int i = identifiers++;
    starts[i] = poolUsed;
    lengths[i] = length;
    counts[i] = 1;
    hashes[i] = hash;
    entryOf[i] = memory.entry(identifier, 0, length, hash);
    poolUsed += length;
    return i;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    int mask = slots.length - 1;
    for (int i = 0; i < identifiers; i++) {
      int s = IdentifierMemory.mix(hashes[i]) & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = i + 1;
      slotOf[i] = s;
    }
  }
}
