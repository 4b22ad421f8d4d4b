package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.jspecify.annotations.Nullable;

/**
 * The prose term of a lower-cased word: none for a {@link ProseAnalyzer#STOP_WORDS stop word},
 * else the stem Lucene's {@link PorterStemFilter} gives it. The words of source code repeat (a
 * chunk's identifiers, a file's, a repository's) and the stemmer costs more than a look-up, so
 * every answer is remembered, stop words included: one look-up per word seen before. The memory
 * is per instance (one analysis chain, one thread) and is forgotten once it holds {@value
 * #CAPACITY} words.
 */
final class ProseWords {

  static final int CAPACITY = 1 << 15;

  /** The remembered answer of a stop word. */
  private static final char[] STOP = new char[0];

  private final OneTerm one = new OneTerm();
  private final PorterStemFilter stemmer = new PorterStemFilter(one);
  private final CharTermAttribute stemmed = one.term;
  private final CharArrayMap<char[]> terms = new CharArrayMap<>(CAPACITY, false);

  /** The prose term of {@code word[from, from + length)}, or null for a stop word. */
  char @Nullable [] term(char[] word, int from, int length) {
    char[] term = terms.get(word, from, length);
    if (term == null) {
      term = ProseAnalyzer.STOP_WORDS.contains(word, from, length) ? STOP
          : stem(word, from, length);
      if (terms.size() >= CAPACITY) {
        terms.clear();
      }
      terms.put(Arrays.copyOfRange(word, from, from + length), term);
    }
    return term == STOP ? null : term;
  }

  private char[] stem(char[] word, int from, int length) {
    one.set(word, from, length);
    try {
      stemmer.reset();
      stemmer.incrementToken();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // one term in memory: nothing to read
    }
    return Arrays.copyOf(stemmed.buffer(), stemmed.length());
  }

  /** A stream of the one word the stemmer is asked about. */
  private static final class OneTerm extends TokenStream {
    final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private boolean pending;

    void set(char[] buffer, int from, int length) {
      clearAttributes();
      term.copyBuffer(buffer, from, length);
      pending = true;
    }

    @Override
    public boolean incrementToken() {
      boolean out = pending;
      pending = false;
      return out;
    }
  }
}
