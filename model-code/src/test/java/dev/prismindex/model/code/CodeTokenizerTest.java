package dev.prismindex.model.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The model's tokenizer: identifier splitting, case, digits, stems, caps. */
class CodeTokenizerTest {

  @Test
  void splitsIdentifiersOfEveryConvention() {
    assertThat(CodeTokenizer.tokens("parseJsonValue parse_json_value ParseJSONValue"))
        .containsExactly("pars", "json", "valu", "pars", "json", "valu", "pars", "json", "valu");
    assertThat(CodeTokenizer.tokens("XMLHttpRequest")).containsExactly("xml", "http", "request");
    assertThat(CodeTokenizer.tokens("$scope __init__")).containsExactly("scop", "init");
  }

  @Test
  void splitsDigitsAndDropsNoise() {
    assertThat(CodeTokenizer.tokens("utf8Decoder sha256 int64 x = 1234567;"))
        .containsExactly("utf", "8", "decoder", "sha", "256", "int", "64");
    assertThat(CodeTokenizer.tokens("a + b * (c - d) {}")).isEmpty();
    assertThat(CodeTokenizer.tokens("")).isEmpty();
    assertThat(CodeTokenizer.tokens("x".repeat(41) + " ok")).containsExactly("ok");
  }

  @Test
  void stemsLightly() {
    assertThat(List.of("parse", "parses", "parsed", "parsing").stream()
        .map(CodeTokenizer::stem).distinct()).containsExactly("pars");
    assertThat(List.of("create", "creates", "created", "creating").stream()
        .map(CodeTokenizer::stem).distinct()).containsExactly("creat");
    assertThat(CodeTokenizer.stem("entries")).isEqualTo("entry");
    assertThat(CodeTokenizer.stem("copied")).isEqualTo("copy");
    assertThat(CodeTokenizer.stem("classes")).isEqualTo("class");
    assertThat(CodeTokenizer.stem("matches")).isEqualTo("match");
    assertThat(CodeTokenizer.stem("running")).isEqualTo("run");
    assertThat(CodeTokenizer.stem("stopped")).isEqualTo("stop");
    assertThat(CodeTokenizer.stem("added")).isEqualTo("add");
    assertThat(CodeTokenizer.stem("filled")).isEqualTo("fill");
    assertThat(CodeTokenizer.stem("status")).isEqualTo("status");
    assertThat(CodeTokenizer.stem("string")).isEqualTo("string");
    assertThat(CodeTokenizer.stem("this")).isEqualTo("this");
    assertThat(CodeTokenizer.stem("get")).isEqualTo("get");
    assertThat(CodeTokenizer.stem("naïve")).isEqualTo("naïve");
  }

  @Test
  void lowerCasesAnyScript() {
    assertThat(CodeTokenizer.tokens("Größe ÉTÉ Σίσυφος")).containsExactly("größe", "été", "σίσυφος");
    // Lower-casing is per character, the same under every default locale (no Turkish dotless i).
    assertThat(CodeTokenizer.tokens("TITLE")).containsExactly("titl");
  }

  @Test
  void capsTheTokenCount() {
    List<String> out = new ArrayList<>();
    assertThat(CodeTokenizer.tokens("one two three four", 2, out::add)).isEqualTo(2);
    assertThat(out).containsExactly("one", "two");
    out.clear();
    assertThat(CodeTokenizer.tokens("readAllBytes more", 2, out::add)).isEqualTo(2);
    assertThat(out).containsExactly("read", "all");
  }

  @Test
  void surrogatesAndControlCharactersAreSeparators() {
    assertThat(CodeTokenizer.tokens("foo\uD800bar\u0000baz\uDC00qux 😀emoji"))
        .containsExactly("foo", "bar", "baz", "qux", "emoji");
  }

  @Test
  void longTextsCopiedAWindowAtATimeGiveTheReferenceTokens() {
    java.util.Random random = new java.util.Random(7);
    String[] pieces = {"readAllBytes", "HTTPServer2", "x", "foo_bar$baz", "12345", "Straße", "éclair",
        " ", "\n", "(", ".", "😀", "\u0000"};
    for (int n = 0; n < 60; n++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(5 * CodeTokenizer.WINDOW);
      while (text.length() < length) {
        if (random.nextInt(20) == 0) { // a run longer than a window
          text.append("aB1".repeat(random.nextInt(CodeTokenizer.WINDOW)));
        } else {
          text.append(pieces[random.nextInt(pieces.length)]);
        }
      }
      // a run that straddles each window's end
      for (int at = CodeTokenizer.WINDOW - 3; at < text.length(); at = 2 * at + 3) {
        text.insert(at, "crossTheEdge");
      }
      String t = text.toString();
      for (int max : new int[] {Integer.MAX_VALUE, 256, 1, random.nextInt(3000)}) {
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        int expectedCount = ReferenceTokenizer.tokens(t, max, expected::add);
        assertThat(CodeTokenizer.tokens(t, max, actual::add)).isEqualTo(expectedCount);
        assertThat(actual).isEqualTo(expected);
      }
    }
  }
}
