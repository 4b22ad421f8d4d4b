package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The index writer's analysis of a chunk: one pass over the text reads its identifiers and counts
 * them ({@link IdentifierTokenizer}'s scanner), and each distinct identifier is split ({@link
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
  private final IdentifierTokenizer tokenizer = new IdentifierTokenizer();
  /** Splits each distinct identifier, remembering what it made of it. */
  private final IdentifierMemory memory = new IdentifierMemory();

  /** The text's distinct identifiers (their memory entries) in order of appearance, and counts. */
  private final IntPairs counted = new IntPairs(256);
  private int occurrences;
  /** For each memory entry, its index in {@code counted} + 1 while the text is read, else 0. */
  private int[] indexOf = new int[1024];

  /** The tokens being collected, UTF-8, and each token's end and count. */
  private byte[] bytes = new byte[4096];
  private int bytesUsed;
  private final IntPairs terms = new IntPairs(1024);

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
    terms.clear();
    bytesUsed = 0;
    byte[] source = memory.bytes();
    for (int i = 0; i < counted.size(); i++) {
      int e = counted.first(i);
      for (int t = memory.codeFrom(e), to = memory.proseFrom(e); t < to; t++) {
        add(source, memory.start(t), memory.end(t) - memory.start(t), counted.second(i));
      }
    }
    return collected(occurrences); // each identifier takes one position, its parts stacked on it
  }

  private CountedTerms proseTerms() {
    terms.clear();
    bytesUsed = 0;
    int length = 0;
    byte[] source = memory.bytes();
    for (int i = 0; i < counted.size(); i++) {
      int e = counted.first(i);
      for (int t = memory.proseFrom(e), to = memory.proseTo(e); t < to; t++) {
        add(source, memory.start(t), memory.end(t) - memory.start(t), counted.second(i));
        length += counted.second(i); // each word its own position
      }
    }
    return collected(length);
  }

  private void add(byte[] source, int from, int length, int count) {
    if (bytesUsed + length > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytesUsed + length, bytes.length * 2));
    }
    System.arraycopy(source, from, bytes, bytesUsed, length);
    bytesUsed += length;
    terms.add(bytesUsed, count);
  }

  private CountedTerms collected(int fieldLength) {
    return new CountedTerms(Arrays.copyOf(bytes, bytesUsed), terms.firsts(), terms.seconds(),
        fieldLength);
  }

  /** Reads the identifiers of {@code text} as {@link IdentifierTokenizer} does and counts them. */
  private void count(String text) {
    for (int i = 0; i < counted.size(); i++) {
      indexOf[counted.first(i)] = 0;
    }
    counted.clear();
    occurrences = 0;
    memory.trim();
    tokenizer.setReader(new StringReader(text));
    try (IdentifierTokenizer reading = tokenizer) { // closed whatever happens: ready for the next text
      reading.reset();
      while (reading.nextIdentifier() >= 0) {
        add(memory.entry(reading.identifier(), reading.identifierLength()));
        occurrences++;
      }
      reading.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader never fails
    }
  }

  /** Counts one occurrence of the identifier of memory entry {@code e}. */
  private void add(int e) {
    if (e >= indexOf.length) {
      indexOf = Arrays.copyOf(indexOf, Math.max(e + 1, indexOf.length * 2));
    }
    int i = indexOf[e] - 1;
    if (i >= 0) {
      counted.addToSecond(i, 1);
      return;
    }
    indexOf[e] = counted.add(e, 1) + 1;
  }
}
