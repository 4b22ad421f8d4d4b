package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grep's output habits of {@code search}: {@code -n} (grep's lines), {@code -l}
 * ({@code --files-with-matches}), {@code -c} ({@code --count}), {@code -m} ({@code --max-count},
 * per file), {@code --color} and {@code NO_COLOR}, the query from stdin ({@code -}), and an
 * unquoted query of several words.
 */
class GrepOutputTest {

  private static final String ESC = "\u001b[";

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    cli.write("notes/lines.txt", "one\ntwo needle\nthree\nfour needle\nfive\nsix needle\n");
    cli.write("notes/other.txt", "alpha\nneedle beta\n");
    cli.write("notes/third.txt", "needle\n");
  }

  private static void assertUsage(Result r, String message) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message);
    assertThat(r.err().strip()).doesNotContain("\n");
  }

  @Test
  void lineNumbersGiveGrepsLinesAndNothingElseOnStdout() {
    Result r = cli.run("search", "needle", "--mode", "literal", "-n", "--path", "notes");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).containsExactly(
        "notes/lines.txt:2:two needle",
        "notes/lines.txt:4:four needle",
        "notes/lines.txt:6:six needle",
        "notes/other.txt:2:needle beta",
        "notes/third.txt:1:needle");
    assertThat(cli.run("search", "needle", "--mode", "literal", "--line-number", "-C", "1",
        "--path", "notes/other.txt").outLines()).as("with context: grep's groups, no header")
        .containsExactly("notes/other.txt-1-alpha", "notes/other.txt:2:needle beta");
  }

  @Test
  void theTruncationLineOfGrepsLayoutsGoesToStderr() {
    Result r = cli.run("search", "needle", "--mode", "literal", "-n", "--limit", "2");
    assertThat(r.outLines()).hasSize(2).allMatch(l -> l.matches("[^:]+:\\d+:.*"));
    assertThat(r.err()).contains("2 of at least 3 hits shown; --limit to see more");
  }

  @Test
  void filesWithMatchesListsEachFileOnceAndLooksPastTheDefaultLimit() throws Exception {
    for (int i = 0; i < 12; i++) {
      cli.write("many/f" + i + ".txt", "needle\n");
    }
    assertThat(cli.run("index").exit()).isZero();
    Result r = cli.run("search", "needle", "--mode", "literal", "-l");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).as("15 files: more than the default limit of 10 hits")
        .hasSize(15).doesNotHaveDuplicates().contains("notes/lines.txt", "notes/third.txt",
            "many/f11.txt");
    assertThat(r.err()).isEmpty();
    assertThat(cli.run("search", "needle", "--mode", "literal", "--files-with-matches",
        "--path", "notes").outLines())
        .containsExactly("notes/lines.txt", "notes/other.txt", "notes/third.txt");
  }

  @Test
  void countPrintsPathAndCountPerFile() {
    Result r = cli.run("search", "needle", "--mode", "literal", "-c", "--path", "notes");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).containsExactly("notes/lines.txt:3", "notes/other.txt:1",
        "notes/third.txt:1");
    Result cut = cli.run("search", "needle", "--mode", "literal", "--count", "--limit", "2");
    assertThat(cut.outLines()).containsExactly("notes/lines.txt:2");
    assertThat(cut.err()).as("a count cut by --limit says so")
        .contains("from the first 2 hits only; more exist; --limit to see more");
  }

  @Test
  void filesAndCountsCannotBeCombinedNorPrintedAsJson() {
    assertUsage(cli.run("search", "needle", "-l", "-c"), "-l (--files-with-matches) and -c"
        + " (--count) cannot be combined");
    assertUsage(cli.run("search", "needle", "-l", "--json"), "--json prints hits: it cannot be"
        + " combined with -l (--files-with-matches)");
    assertUsage(cli.run("search", "needle", "--json", "-c"), "with -c (--count)");
  }

  @Test
  void maxCountKeepsTheFirstHitsOfEachFileAndStillFillsTheLimit() {
    Result r = cli.run("search", "needle", "--mode", "literal", "-n", "-m", "1", "--path",
        "notes");
    assertThat(r.outLines()).containsExactly("notes/lines.txt:2:two needle",
        "notes/other.txt:2:needle beta", "notes/third.txt:1:needle");
    List<JsonNode> hits = cli.run("search", "needle", "--mode", "literal", "--json",
        "--max-count", "2", "--limit", "3", "--path", "notes").json();
    assertThat(hits).extracting(h -> h.get("path").asText() + ":" + h.get("line").asInt())
        .as("the limit counts the capped hits: 2 from lines.txt, then other.txt")
        .containsExactly("notes/lines.txt:2", "notes/lines.txt:4", "notes/other.txt:2");
    assertUsage(cli.run("search", "needle", "-m", "0"), "invalid --max-count 0");
  }

  @Test
  void maxCountSearchesDeeperWhenTheCapDropsHits() throws Exception {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      many.append("needle ").append(i).append('\n');
    }
    cli.write("notes/a-many.txt", many.toString());
    List<JsonNode> hits = cli.run("search", "needle", "--mode", "literal", "--json", "-m", "1",
        "--limit", "3").json();
    assertThat(hits).extracting(h -> h.get("path").asText())
        .as("a-many.txt's 40 hits come first in path order; one of them, then the next files")
        .containsExactly("notes/a-many.txt", "notes/lines.txt", "notes/other.txt");
  }

  @Test
  void colourFollowsColorThenNoColorThenTheTerminal() {
    String[] search = {"search", "needle", "--mode", "literal", "-n", "--path", "notes/third.txt"};
    assertThat(cli.run(search).out()).as("piped: auto is off").doesNotContain(ESC);
    assertThat(cli.run(with(search, "--color", "always")).out()).contains(ESC + "35m"
        + "notes/third.txt" + ESC + "0m");
    cli.stdoutTerminal = true;
    assertThat(cli.run(search).out()).as("a terminal: on").contains(ESC);
    assertThat(cli.run(with(search, "--color=never")).out()).doesNotContain(ESC);
    cli.variables.put("NO_COLOR", "1");
    assertThat(cli.run(search).out()).as("NO_COLOR").doesNotContain(ESC);
    assertThat(cli.run(with(search, "--colour", "always")).out())
        .as("an explicit --color=always wins over NO_COLOR").contains(ESC);
    assertUsage(cli.run(with(search, "--color", "sometimes")),
        "invalid --color 'sometimes': expected auto, always or never");
  }

  @Test
  void theQueryComesFromStdinWithDash() throws Exception {
    Result r = cli.runWithStdin("needle beta\n".getBytes(StandardCharsets.UTF_8), "search", "-",
        "--mode", "literal", "-n");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).containsExactly("notes/other.txt:2:needle beta");
    cli.write("notes/dash.txt", "x = y\nminus -1 here\n");
    Result dashes = cli.runWithStdin("-1\r\n\n".getBytes(StandardCharsets.UTF_8), "search",
        "--mode", "literal", "--path", "notes/dash.txt", "-");
    assertThat(dashes.exit()).as("a query from stdin may start with -: " + dashes).isZero();
    assertThat(dashes.outLines()).containsExactly("notes/dash.txt:2:7:minus -1 here");
    Result literalDash = cli.runWithStdin(new byte[0], "search", "--mode", "literal", "-n",
        "--path", "notes/dash.txt", "--", "-");
    assertThat(literalDash.outLines()).as("after --, - is the query itself")
        .containsExactly("notes/dash.txt:2:minus -1 here");
  }

  @Test
  void stdinThatIsEmptyOrNotUtf8OrTooLongIsAUsageError() {
    assertUsage(cli.runWithStdin("\n".getBytes(StandardCharsets.UTF_8), "search", "-"),
        "prism-index search: missing QUERY: stdin (-) was empty");
    assertUsage(cli.runWithStdin(new byte[] {(byte) 0xc3, 0x28}, "search", "-"),
        "the query from stdin is not UTF-8");
    assertUsage(cli.runWithStdin("x".repeat(5000).getBytes(StandardCharsets.UTF_8), "search",
        "-"), "the query from stdin is more than 4096 bytes");
  }

  @Test
  void anUnquotedQueryOfSeveralWordsSaysToQuoteIt() {
    assertUsage(cli.run("search", "how", "to", "check", "blank", "strings"),
        "prism-index search: 5 words where one QUERY goes: quote a query of several words, as"
            + " in prism-index search \"how to check blank strings\"; a directory to search goes"
            + " in --path DIR");
    assertUsage(cli.run("search", "needle", "-n", "5"), "-n turns on line numbers (as in grep):"
        + " the most hits is --limit N");
  }

  private static String[] with(String[] args, String... more) {
    String[] all = new String[args.length + more.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }
}
