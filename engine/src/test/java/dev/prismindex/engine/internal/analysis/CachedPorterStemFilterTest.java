package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.junit.jupiter.api.Test;

/** The cached stemmer gives Porter's stems, whatever it has seen before. */
class CachedPorterStemFilterTest {

  private static final String[] ENDINGS = {"", "s", "es", "ed", "ing", "ly", "ness", "ation",
      "ational", "izer", "ization", "ful", "ive", "ies", "y", "e", "ement", "ous", "ism", "ity"};

  private static List<String> run(String text, Function<TokenStream, TokenStream> filter)
      throws IOException {
    WhitespaceTokenizer tokenizer = new WhitespaceTokenizer();
    tokenizer.setReader(new StringReader(text));
    List<String> out = new ArrayList<>();
    try (TokenStream ts = filter.apply(tokenizer)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term + "@" + offset.startOffset() + "-" + offset.endOffset());
      }
      ts.end();
    }
    return out;
  }

  @Test
  void stemsEqualPortersAcrossRepeatsAndForgetting() throws IOException {
    Random random = new Random(16);
    String[] stems = new String[2_000];
    for (int i = 0; i < stems.length; i++) {
      StringBuilder b = new StringBuilder();
      int n = 1 + random.nextInt(9);
      for (int j = 0; j < n; j++) {
        b.append(j % 3 == 1 ? "aeiouy".charAt(random.nextInt(6))
            : (char) ('a' + random.nextInt(26)));
      }
      if (random.nextInt(50) == 0) {
        b.append('\u00e9');
      }
      stems[i] = b.toString();
    }
    StringBuilder text = new StringBuilder();
    // More distinct words than the cache holds, each several times: hits, misses and a forgotten
    // cache, with a long word now and then (longer than any term before it).
    for (int i = 0; i < 4 * CachedPorterStemFilter.CAPACITY; i++) {
      text.append(stems[random.nextInt(stems.length)])
          .append(ENDINGS[random.nextInt(ENDINGS.length)]);
      if (random.nextInt(1000) == 0) {
        text.append("internationalizations".repeat(1 + random.nextInt(3)));
      }
      text.append(' ');
    }
    List<String> porter = run(text.toString(), PorterStemFilter::new);
    assertThat(porter).hasSizeGreaterThan(4 * CachedPorterStemFilter.CAPACITY - 1);
    assertThat(run(text.toString(), CachedPorterStemFilter::new)).isEqualTo(porter);
    assertThat(run("relational relational relate relates", CachedPorterStemFilter::new))
        .containsExactly("relat@0-10", "relat@11-21", "relat@22-28", "relat@29-36");
  }
}
