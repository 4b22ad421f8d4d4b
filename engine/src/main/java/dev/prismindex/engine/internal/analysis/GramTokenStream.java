package dev.prismindex.engine.internal.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.UnicodeUtil;

/**
 * Emits the grams of a {@link GramSet} as terms (the literal index's postings, DOCS only), as UTF-8
 * bytes written directly: an ASCII gram is its bytes, any other goes through Lucene's own UTF-16 to
 * UTF-8 conversion (so the terms are those a character term attribute would give).
 */
public final class GramTokenStream extends TokenStream {
  private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
  private final long[] grams;
  private final char[] chars = new char[3];
  private final BytesRef bytes = new BytesRef(new byte[3 * UnicodeUtil.MAX_UTF8_BYTES_PER_CHAR]);
  private int next;

  public GramTokenStream(GramSet grams) {
    this.grams = grams.packed();
  }

  @Override
  public boolean incrementToken() {
    if (next >= grams.length) {
      return false;
    }
    clearAttributes();
    int len = GramSet.decode(grams[next++], chars);
    boolean ascii = true;
    for (int i = 0; i < len; i++) {
      char c = chars[i];
      ascii &= c < 0x80;
      bytes.bytes[i] = (byte) c;
    }
    bytes.length = ascii ? len : UnicodeUtil.UTF16toUTF8(chars, 0, len, bytes.bytes);
    term.setBytesRef(bytes);
    return true;
  }

  @Override
  public void reset() {
    next = 0;
  }
}
