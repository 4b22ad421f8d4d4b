package dev.prismindex.engine.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** How the lexical engine reads natural-language (prose) queries. */
class ProseQueryTest {

  private final LexicalSearcher searcher =
      new LexicalSearcher(new CodeAnalyzer());

  @Test
  void proseNeedsFourWordsTwoStopWordsAndMostlyWords() {
    assertThat(LexicalSearcher.isProse("Gets the rounding mode used in this format")).isTrue();
    assertThat(LexicalSearcher.isProse("the rounding mode")).isFalse(); // three words
    assertThat(LexicalSearcher.isProse("parse duration config string")).isFalse(); // no stop word
    assertThat(LexicalSearcher.isProse("if (this.a == the) return it;")).isFalse(); // code
    assertThat(LexicalSearcher.isProse("0 == 1 || the != it && 2 <= 3")).isFalse(); // operators
    assertThat(LexicalSearcher.isProse("  ")).isFalse();
  }

  @Test
  void aSentenceKeepsItsPunctuation() {
    assertThat(LexicalSearcher.isProse("Validate that the stateful condition is true; otherwise "
        + "throwing an exception with the specified message")).isTrue();
    assertThat(LexicalSearcher.isProse(
        "Removes control characters (char <= 32) from both ends of this String")).isTrue();
    assertThat(LexicalSearcher.isProse("Given a completed execution context and data, build the "
        + "{ errors, data } response")).isTrue();
  }

  @Test
  void proseQueriesLoseTheirStopWordsButNeverAllTerms() {
    assertThat(searcher.terms("Gets the entries of this map"))
        .containsExactly("gets", "entries", "map");
    assertThat(searcher.terms("what is the it")).containsExactly("what", "is", "the", "it");
    // Identifiers and code keep every term.
    assertThat(searcher.terms("this.value")).containsExactly("this", "value");
    assertThat(searcher.terms("the map")).containsExactly("the", "map");
  }

  @Test
  void singularFormsBySuffix() {
    assertThat(LexicalSearcher.singular("gets")).isEqualTo("get");
    assertThat(LexicalSearcher.singular("entries")).isEqualTo("entry");
    assertThat(LexicalSearcher.singular("matches")).isEqualTo("match");
    assertThat(LexicalSearcher.singular("boxes")).isEqualTo("box");
    assertThat(LexicalSearcher.singular("class")).isNull();
    assertThat(LexicalSearcher.singular("status")).isNull();
    assertThat(LexicalSearcher.singular("axis")).isNull();
    assertThat(LexicalSearcher.singular("its")).isNull(); // too short
    assertThat(LexicalSearcher.singular("utf8s")).isNull(); // not a word
    assertThat(LexicalSearcher.singular("map")).isNull();
  }

  @Test
  void proseQueriesAlsoMatchTheSingularForm() {
    String prose = searcher.query("Gets the entries of this map").toString();
    assertThat(prose).contains("body:entries", "body:entry", "symbol:get", "body:map")
        .doesNotContain("body:the ", "body:this");
    assertThat(prose).contains("prose:entri", "prose:map").doesNotContain("prose:the");
    String code = searcher.query("getEntries entries").toString();
    assertThat(code).doesNotContain("prose:");
    assertThat(code).doesNotContain("body:entry ").doesNotContain("body:entry)");
  }
}
