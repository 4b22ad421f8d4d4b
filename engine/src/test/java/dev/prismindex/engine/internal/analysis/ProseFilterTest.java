package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.junit.jupiter.api.Test;

/**
 * The prose filter drops the stop words and stems the rest as Lucene's stop filter and Porter's
 * stemmer do, whatever it has seen before.
 */
class ProseFilterTest {

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
      PositionIncrementAttribute increment = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term + "@" + offset.startOffset() + "-" + offset.endOffset() + "+"
            + increment.getPositionIncrement());
      }
      ts.end();
    }
    return out;
  }

  @Test
  void dropsAndStemsAsStopFilterAndPorterDoAcrossRepeatsAndForgetting() throws IOException {
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
    // cache, with a long word now and then (longer than any term before it) and stop words.
    Object[] stopWords = ProseAnalyzer.STOP_WORDS.toArray();
    for (int i = 0; i < 4 * ProseWords.CAPACITY; i++) {
      if (random.nextInt(8) == 0) {
        text.append((char[]) stopWords[random.nextInt(stopWords.length)]).append(' ');
      }
      text.append(stems[random.nextInt(stems.length)])
          .append(ENDINGS[random.nextInt(ENDINGS.length)]);
      if (random.nextInt(1000) == 0) {
        text.append("internationalizations".repeat(1 + random.nextInt(3)));
      }
      text.append(' ');
    }
    Function<TokenStream, TokenStream> lucene =
        in -> new PorterStemFilter(new StopFilter(in, ProseAnalyzer.STOP_WORDS));
    List<String> porter = run(text.toString(), lucene);
    assertThat(porter).hasSizeGreaterThan(3 * ProseWords.CAPACITY);
    assertThat(run(text.toString(), ProseFilter::new)).isEqualTo(porter);
    assertThat(run("the relational relational of the relate relates", ProseFilter::new))
        .containsExactly("relat@4-14+2", "relat@15-25+1", "relat@33-39+3", "relat@40-47+1");
  }
}
