package dev.prismindex.engine.internal.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/** Emits the grams of a {@link GramSet} as terms (the literal index's postings, DOCS only). */
public final class GramTokenStream extends TokenStream {
  private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
  private final long[] grams;
  private final char[] scratch = new char[3];
  private int next;

  public GramTokenStream(GramSet grams) {
    this.grams = grams.sorted();
  }

  @Override
  public boolean incrementToken() {
    if (next >= grams.length) {
      return false;
    }
    clearAttributes();
    int len = GramSet.decode(grams[next++], scratch);
    term.copyBuffer(scratch, 0, len);
    return true;
  }

  @Override
  public void reset() {
    next = 0;
  }
}
