package dev.prismindex.engine.internal.analysis;

import org.apache.lucene.analysis.FilteringTokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Lucene's {@code StopFilter} over {@link ProseAnalyzer#STOP_WORDS} followed by its {@code
 * PorterStemFilter}, in one filter: each word becomes its {@link ProseWords prose term} or is
 * dropped (the next word's position increment counting it, as the stop filter's does).
 */
final class ProseFilter extends FilteringTokenFilter {

  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final ProseWords words = new ProseWords();

  ProseFilter(TokenStream input) {
    super(input);
  }

  @Override
  protected boolean accept() {
    char[] prose = words.term(term.buffer(), 0, term.length());
    if (prose == null) {
      return false;
    }
    term.copyBuffer(prose, 0, prose.length);
    return true;
  }
}
