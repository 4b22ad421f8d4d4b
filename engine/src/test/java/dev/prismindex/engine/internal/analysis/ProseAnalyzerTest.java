package dev.prismindex.engine.internal.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

/** English prose analysis: identifier words, no stop words, Porter stems. */
class ProseAnalyzerTest {

  private final CodeAnalyzer analyzer = new CodeAnalyzer();

  private List<String> field(String field, String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream(field, new StringReader(text))) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    }
    return out;
  }

  @Test
  void inflectionsMeetOnOneStem() {
    assertThat(analyzer.proseTerms("Removes the entries", 10)).containsExactly("remov", "entri");
    assertThat(analyzer.proseTerms("Remove the entry", 10)).containsExactly("remov", "entri");
    assertThat(analyzer.proseTerms("removed removing", 10)).containsExactly("remov");
    assertThat(analyzer.proseTerms("matches match boxes box classes class", 10))
        .containsExactly("match", "box", "class");
  }

  @Test
  void stopWordsAreDropped() {
    assertThat(analyzer.proseTerms("Returns the value of this map, or null if there is none",
        20)).containsExactly("return", "valu", "map", "null", "none");
    assertThat(analyzer.proseTerms("the of a to", 10)).isEmpty();
  }

  @Test
  void identifiersAreSplitIntoWordsWithoutTheWhole() {
    assertThat(analyzer.proseTerms("removeExpiredEntries(MAX_CACHE_SIZE, XMLHttpRequest)", 20))
        .containsExactly("remov", "expir", "entri", "max", "cach", "size", "xml", "http",
            "request");
    assertThat(analyzer.proseTerms("___ __init__ x", 10)).containsExactly("init", "x");
  }

  @Test
  void theWriterAnalyzesProseFieldsAsProseAndCodeFieldsAsCode() throws IOException {
    String text = "/** Removes the entries. */ void removeEntries()";
    assertThat(field(CodeAnalyzer.PROSE_FIELD, text))
        .containsExactly("remov", "entri", "void", "remov", "entri");
    assertThat(field("body", text)).containsExactly("removes", "the", "entries", "void",
        "removeentries", "remove", "entries");
    // Alternating fields on one thread: each keeps its own chain.
    assertThat(field(CodeAnalyzer.PROSE_FIELD, "entries")).containsExactly("entri");
    assertThat(field("body", "entries")).containsExactly("entries");
  }

  @Test
  void randomInputNeverFails() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int i = 0; i < 1000; i++) {
      StringBuilder sb = new StringBuilder();
      int len = random.nextInt(300);
      for (int j = 0; j < len; j++) {
        sb.append((char) random.nextInt(0x3000));
      }
      for (String t : analyzer.proseTerms(sb.toString(), 1000)) {
        assertThat(t).as("seed %d", seed).isNotEmpty();
      }
    }
  }
}
