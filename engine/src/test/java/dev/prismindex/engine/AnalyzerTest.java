package dev.prismindex.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.analysis.IdentifierTokenizer;
import dev.prismindex.engine.internal.analysis.Grams;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AnalyzerTest {

  private final CodeAnalyzer analyzer = new CodeAnalyzer();

  private List<String> terms(String text) {
    return List.copyOf(analyzer.terms(text, 1000));
  }

  @Test
  void camelCaseWithAcronyms() {
    assertThat(terms("XMLHttpRequest")).containsExactly("xmlhttprequest", "xml", "http", "request");
    assertThat(terms("parseDurationString"))
        .containsExactly("parsedurationstring", "parse", "duration", "string");
    assertThat(terms("getHTTPResponseCode"))
        .containsExactly("gethttpresponsecode", "get", "http", "response", "code");
    assertThat(terms("IOError")).containsExactly("ioerror", "io", "error");
  }

  @Test
  void snakeCaseKeepsWholeAndJoined() {
    assertThat(terms("parse_duration_string")).containsExactly("parse_duration_string", "parse",
        "duration", "string", "parsedurationstring");
    assertThat(terms("__init__")).containsExactly("__init__", "init");
    assertThat(terms("MAX_VALUE")).containsExactly("max_value", "max", "value", "maxvalue");
  }

  @Test
  void digitsSplitFromLetters() {
    assertThat(terms("utf8Decoder")).containsExactly("utf8decoder", "utf", "8", "decoder");
    assertThat(terms("sha256")).containsExactly("sha256", "sha", "256");
    assertThat(terms("v2")).containsExactly("v2", "v", "2");
  }

  @Test
  void nonAsciiIdentifiers() {
    assertThat(terms("größeBerechnen")).containsExactly("größeberechnen", "größe", "berechnen");
    assertThat(terms("ÄpfelZählen")).containsExactly("äpfelzählen", "äpfel", "zählen");
    assertThat(terms("日本語テキスト")).containsExactly("日本語テキスト");
    assertThat(terms("𝔘nicode")).isNotEmpty();
  }

  @Test
  void punctuationAndControlCharactersSeparate() {
    assertThat(terms("foo(bar, \"baz\")\u0000qux::x->y")).containsExactly("foo", "bar", "baz",
        "qux", "x", "y");
    assertThat(terms("\"*:\\()[]{}")).isEmpty();
    assertThat(terms("")).isEmpty();
  }

  @Test
  void randomInputNeverFailsAndEveryTermIsLowerCase() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int i = 0; i < 2000; i++) {
      StringBuilder sb = new StringBuilder();
      int len = random.nextInt(300);
      for (int j = 0; j < len; j++) {
        sb.append((char) random.nextInt(0x3000));
      }
      String s = sb.toString();
      for (String t : terms(s)) {
        assertThat(t).as("seed %d", seed).isNotEmpty();
        assertThat(t.length()).as("seed %d", seed).isLessThanOrEqualTo(
            IdentifierTokenizer.MAX_TOKEN_CHARS * 2);
      }
      assertThat(Grams.queryGrams(s, random.nextBoolean())).as("seed %d", seed).isNotNull();
    }
  }

  @Test
  void longIdentifiersAreCut() {
    String longName = "a".repeat(1000);
    assertThat(terms(longName)).allSatisfy(
        t -> assertThat(t.length()).isLessThanOrEqualTo(IdentifierTokenizer.MAX_TOKEN_CHARS));
  }
}
