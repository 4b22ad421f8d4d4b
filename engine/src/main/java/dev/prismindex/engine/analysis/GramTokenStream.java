package dev.prismindex.engine.analysis;

import java.util.Iterator;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/** Emits a precomputed set of n-grams as terms (the literal index's postings, DOCS only). */
public final class GramTokenStream extends TokenStream {
  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final Iterable<String> grams;
  private Iterator<String> it;

  public GramTokenStream(Iterable<String> grams) {
    this.grams = grams;
    this.it = grams.iterator();
  }

  @Override
  public boolean incrementToken() {
    if (!it.hasNext()) {
      return false;
    }
    clearAttributes();
    term.setEmpty().append(it.next());
    return true;
  }

  @Override
  public void reset() {
    it = grams.iterator();
  }
}
