package dev.prismindex.engine.internal.analysis;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Lucene's {@link PorterStemFilter}, remembering the stems of the words it has seen: the words of
 * source code repeat (a chunk's identifiers, a file's, a repository's), and the stemmer costs more
 * than a look-up. Every term comes out exactly as Porter's stemmer makes it; a word seen before
 * gets its remembered stem. The memory is per instance (one analysis chain, one thread) and is
 * forgotten once it holds {@value #CAPACITY} words.
 */
final class CachedPorterStemFilter extends TokenFilter {

  static final int CAPACITY = 1 << 15;

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final OneTerm one = new OneTerm();
  private final PorterStemFilter stemmer = new PorterStemFilter(one);
  private final CharTermAttribute stemmed = one.term;
  private final CharArrayMap<char[]> stems = new CharArrayMap<>(CAPACITY, false);

  CachedPorterStemFilter(TokenStream input) {
    super(input);
  }

  @Override
  public boolean incrementToken() throws IOException {
    if (!input.incrementToken()) {
      return false;
    }
    char[] buffer = term.buffer();
    int length = term.length();
    char[] stem = stems.get(buffer, 0, length);
    if (stem == null) {
      stem = stem(buffer, length);
      if (stems.size() >= CAPACITY) {
        stems.clear();
      }
      stems.put(Arrays.copyOf(buffer, length), stem);
    }
    term.copyBuffer(stem, 0, stem.length);
    return true;
  }

  private char[] stem(char[] buffer, int length) throws IOException {
    one.set(buffer, length);
    stemmer.reset();
    stemmer.incrementToken();
    char[] out = new char[stemmed.length()];
    System.arraycopy(stemmed.buffer(), 0, out, 0, out.length);
    return out;
  }

  /** A stream of the one word the stemmer is asked about. */
  private static final class OneTerm extends TokenStream {
    final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private boolean pending;

    void set(char[] buffer, int length) {
      clearAttributes();
      term.copyBuffer(buffer, 0, length);
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
