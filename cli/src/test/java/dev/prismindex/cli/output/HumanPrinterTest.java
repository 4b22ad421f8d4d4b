package dev.prismindex.cli.output;

import static dev.prismindex.cli.HostileNamesTest.OWN_STYLES;
import static dev.prismindex.cli.HostileNamesTest.assertNoRawControls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.SearchMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every field the human printer writes goes through the sanitiser; its own colours stay. */
class HumanPrinterTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private HumanPrinter printer(Style style) {
    return new HumanPrinter(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), style);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private static SearchAnswer result(String query, String mode, Hit hit) {
    return new SearchAnswer(query, false, null,
        new dev.prismindex.engine.SearchResult(List.of(hit),
            dev.prismindex.repository.SearchMode.fromWireName(mode).orElseThrow(),
            new dev.prismindex.engine.SemanticCoverage(1, 1)),
        new Freshness(true, 2, 2, false, false), 5);
  }

  private static Hit hit(String path, String snippet, String mode, String symbol) {
    EngineScore first = new EngineScore(1, 1.0);
    return new Hit(path, 3, 3, 0, snippet, 1.0, SearchMode.fromWireName(mode).orElseThrow(),
        "java", symbol, mode.equals("lexical") ? first : null,
        mode.equals("semantic") ? first : null, mode.equals("literal") ? first : null);
  }

  @Test
  void pathSymbolSnippetAndQueryAreEscapedAndOnlyThePrintersColoursAreRaw() {
    HumanPrinter p = printer(Style.ANSI);
    p.search(result("needle \u001b[2J\u202e", "lexical",
        hit("a\u001b[2Jb\n.java", "x\u202e\u001b]0;t\u0007 needle\tend\u0085", "lexical",
            "sym\u202ebol\n")));

    assertNoRawControls(OWN_STYLES.matcher(out()).replaceAll(""));
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo("\u001b[33mnote: \u001b[0mre-indexed 2 changed files before searching\n");
    assertThat(out()).contains("for \"needle \\u001B[2J\\u202E\" in 5 ms",
        "\u001b[35ma\\u001B[2Jb\\n.java\u001b[0m:\u001b[32m3\u001b[0m",
        "\u001b[1msym\\u202Ebol\\n\u001b[0m",
        "    x\\u202E\\u001B]0;t\\u0007 \u001b[1;31mneedle\u001b[0m end\\u0085");
  }

  @Test
  void aLiteralQueryWithControlsIsMarkedInTheEscapedSnippet() {
    HumanPrinter p = printer(Style.ANSI);
    p.search(result("a\u001b[31mb", "literal", hit("f.txt", "x a\u001b[31mb y", "literal", null)));

    assertThat(out()).contains("    x \u001b[1;31ma\\u001B[31mb\u001b[0m y");
    assertNoRawControls(OWN_STYLES.matcher(out()).replaceAll(""));
  }

  @Test
  void aPlainMatchLineIsItsTextEscapedOnceWhateverItHolds() {
    // The plain line's text is appended as SafeText.escape made it: the same as escaping it again
    // as a field would (tabs shown as spaces first), for controls, C1, bidirectional and tag
    // characters, backslashes, text that looks escaped already and lone surrogates.
    String[] pieces = {"a", " ", "\t", "\\", "\\u001B", "\u001b[31m", "\u0085", "\u202E", "\u200B",
        "\uDB40\uDC41", "\uDB40", "\uDC41", "\uFFFD", "\u00E9", "\uD83D\uDE00", "\r", "\u007F", "\\t"};
    java.util.Random random = new java.util.Random(515);
    for (int round = 0; round < 500; round++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(12); i >= 0; i--) {
        text.append(pieces[random.nextInt(pieces.length)]);
      }
      out.reset();
      HumanPrinter p = new HumanPrinter(new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8), Style.PLAIN, Layout.LINES);
      ExactPrinter exact = p.exact("q");
      exact.hit(new Hit("d/f\t.txt", 7, 7, 2, text.toString(), 1.0, SearchMode.REGEX, "text",
          null, null, null, new EngineScore(1, 1.0), null, List.of(), null));
      String expected = dev.prismindex.tool.SafeText.escapeField("d/f\t.txt") + ":7:"
          + dev.prismindex.tool.SafeText.escapeField(dev.prismindex.tool.SafeText.escape(
              text.toString().replace('\t', ' '))) + "\n";
      // As UTF-8 bytes: a lone surrogate, which has none, is written as '?'.
      assertThat(out.toByteArray()).as("%s", List.of(text.toString()))
          .isEqualTo(expected.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void plainHitLinesAreTheBytesOfTheGeneralLineInEveryLayout() {
    // PlainHitLines writes uncoloured hit lines as bytes; they must be what Line made: the path
    // escaped as a field (once per file, also when the next file's path is an equal string or
    // differs only by its repository), digits, the text's tabs as spaces, then the text escaped,
    // UTF-8 (a lone surrogate as '?'), whatever the text holds: a CR left by a CRLF line, U+FFFD
    // for bytes that are not UTF-8, controls, non-ASCII, lines far longer than the buffer.
    String[] pieces = {"a", "Z", " ", "\t", "\r", "\\", "\u007F", "\u001b[31m", "\u0085", "\u202E",
        "\uFFFD", "\u00E9", "\uD83D\uDE00", "\uDB40\uDC41", "\uDB40", "onNext(", "x".repeat(700)};
    String[] paths = {"src/A.java", "src/B\t\u00E9.java", "d/\u001b[2J.txt"};
    String[] repos = {null, null, "payments-api"};
    java.util.Random random = new java.util.Random(2112);
    for (Layout layout : List.of(Layout.BLOCKS, Layout.LINES)) {
      out.reset();
      HumanPrinter p = new HumanPrinter(new PrintStream(out, false, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8), Style.PLAIN, layout);
      ExactPrinter exact = p.exact("q");
      StringBuilder expected = new StringBuilder();
      for (int round = 0; round < 400; round++) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(9); i >= 0; i--) {
          text.append(pieces[random.nextInt(pieces.length)]);
        }
        int file = random.nextInt(paths.length);
        String path = new String(paths[file]); // an equal string, not the same one
        int line = 1 + (random.nextInt(3) == 0 ? random.nextInt(10)
            : random.nextInt(2_000_000_000));
        int column = random.nextInt(100_000);
        exact.hit(new Hit(path, line, line, column, text.toString(), 1.0, SearchMode.REGEX,
            "text", null, null, null, new EngineScore(1, 1.0), null, List.of(), repos[file]));
        String shown = repos[file] == null ? path : repos[file] + "/" + path;
        expected.append(dev.prismindex.tool.SafeText.escapeField(shown)).append(':').append(line)
            .append(':').append(layout == Layout.LINES ? "" : column + ":")
            .append(dev.prismindex.tool.SafeText.escape(text.toString().replace('\t', ' ')))
            .append('\n');
      }
      assertThat(out.toByteArray()).as("%s", layout)
          .isEqualTo(expected.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void colouredHitLinesStillMarkTheirMatches() {
    HumanPrinter p = printer(Style.ANSI);
    ExactPrinter exact = p.exact("onNext");
    String text = "\tthis.onNext(v);\r";
    exact.hit(new Hit("src/A.java", 12, 12, 7, text, 1.0, SearchMode.REGEX, "java", null, null,
        null, new EngineScore(1, 1.0), null,
        List.of(new dev.prismindex.repository.MatchSpan(7, 13, "onNext")), null));

    assertThat(out()).isEqualTo("\u001b[35msrc/A.java\u001b[0m:\u001b[32m12\u001b[0m:7: this."
        + "\u001b[1;31monNext\u001b[0m(v);\\r\n");
  }

  @Test
  void plainOutputHasNoEscapeSequenceAtAll() {
    HumanPrinter p = printer(Style.PLAIN);
    p.search(result("q", "lexical", hit("a\u001b[2Jb.java", "q\u001b[2J", "lexical", "s\u001b")));

    assertThat(out()).doesNotContain("\u001b").contains("a\\u001B[2Jb.java:3  s\\u001B  1.000",
        "    q\\u001B[2J");
  }

  @Test
  void indexSummaryFieldsAreEscaped() {
    HumanPrinter p = printer(Style.PLAIN);
    p.index(new IndexSummary(Path.of("repo\u001b[2J"), Path.of("idx\nstate     ready"), 1, 1, 1,
        0, 0, 0, Map.of("too\u202ebig", 1), 1, 0, 0, true, "rev\u0007", 1, 1, null, null,
        "disabled", "model\nmissing\u001b[2J", 10, 10, null));

    assertNoRawControls(out());
    assertThat(out()).contains("at idx\\nstate     ready", "too\\u202Ebig 1",
        "unavailable (model\\nmissing\\u001B[2J)", "revision rev\\u0007");
  }
}
