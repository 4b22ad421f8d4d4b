package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.junit.jupiter.api.Test;

/**
 * The allocation-free tokenizer emits exactly what the string-based one it replaced emitted (kept
 * in the tests as {@link ReferenceIdentifierTokenizer}): same terms, position increments and offsets, in
 * code and words mode, on code-like and hostile random text.
 */
class IdentifierTokenizerEquivalenceTest {

  private static final String[] PIECES = {"get", "Bean", "XML", "Http", "request", "_", "__",
      "utf8", "Decoder", "9", "A", "b", "ID", "parse_duration", "MAX_CACHE_SIZE", " ", "(", ".",
      "\n", "\t", "é", "İ", "Σ", "ß", "😀", "𝔘", "\ud800", "\udc00", "日本", "Ǆ", "x",
      "a".repeat(140), "$", "::", "0x1F", "getGet", "HTMLParser", "IOStream2D"};

  @Test
  void sameTokensAsTheReferenceOnRandomText() throws IOException {
    Random random = new Random(16);
    for (int round = 0; round < 3000; round++) {
      StringBuilder text = new StringBuilder();
      int n = random.nextInt(30);
      for (int i = 0; i < n; i++) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
        if (random.nextInt(4) == 0) {
          text.append((char) random.nextInt(0x3000));
        }
      }
      String s = text.toString();
      assertThat(tokens(new IdentifierTokenizer(), s)).as(s)
          .isEqualTo(tokens(new ReferenceIdentifierTokenizer(), s));
      assertThat(tokens(IdentifierTokenizer.words(), s)).as(s)
          .isEqualTo(tokens(ReferenceIdentifierTokenizer.words(), s));
    }
  }

  @Test
  void sameTokensAcrossTheReadBuffer() throws IOException {
    String s = ("someIdentifier_with_Parts XMLHttpRequest 42 ").repeat(400);
    assertThat(tokens(new IdentifierTokenizer(), s)).isEqualTo(tokens(new ReferenceIdentifierTokenizer(), s));
  }

  private static List<String> tokens(Tokenizer tokenizer, String text) throws IOException {
    List<String> out = new ArrayList<>();
    for (int pass = 0; pass < 2; pass++) { // a reused tokenizer gives the same again
      tokenizer.setReader(new StringReader(text));
      CharTermAttribute term = tokenizer.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = tokenizer.addAttribute(OffsetAttribute.class);
      PositionIncrementAttribute inc = tokenizer.addAttribute(PositionIncrementAttribute.class);
      tokenizer.reset();
      while (tokenizer.incrementToken()) {
        out.add(term + "@" + inc.getPositionIncrement() + ":" + offset.startOffset() + "-"
            + offset.endOffset());
      }
      tokenizer.end();
      out.add("end:" + offset.endOffset());
      tokenizer.close();
    }
    return out;
  }
}
