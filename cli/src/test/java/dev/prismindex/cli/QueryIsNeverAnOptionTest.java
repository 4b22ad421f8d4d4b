package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A query is never taken for an option (issue 41, item 4): {@code -V} and {@code -h} are options
 * only as whole words before the query, a query that starts with {@code -} works after
 * {@code --} and wherever it cannot be an option, and NDJSON is never replaced by help or version
 * text. Each case failed before (the version, the usage, or a misleading message).
 */
class QueryIsNeverAnOptionTest {

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    cli.write("notes/dashes.txt", "alpha\n-Verbose flag\n-hidden files here\nx -1 y\n");
    assertThat(cli.run("index").exit()).isZero();
  }

  private static void assertUsage(Result r, String message) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message);
    assertThat(r.err().strip()).doesNotContain("\n");
  }

  private static void assertJsonOnly(Result r) {
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).doesNotContain("Usage").doesNotContain("prism-index 0.");
    for (String line : r.outLines()) {
      assertThat(line).as(r.toString()).startsWith("{\"path\":").endsWith("}");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"-Verbose", "-hidden files", "-1", "->", "-Vh", "-hV"})
  void aQueryThatStartsWithADashIsTheQuery(String query) {
    Result r = cli.run("search", query, "--json", "--mode", "literal");
    assertJsonOnly(r);
    Result later = cli.run("search", "--json", "--mode", "literal", query);
    assertJsonOnly(later);
    assertThat(later.out()).isEqualTo(r.out());
  }

  @Test
  void theQueriesOfTheIssueFindTheirLines() {
    assertThat(cli.run("search", "-Verbose", "--json", "--mode", "literal").json())
        .extracting(h -> h.get("line").asInt()).containsExactly(2);
    assertThat(cli.run("search", "-hidden files", "--json", "--mode", "literal").json())
        .extracting(h -> h.get("line").asInt()).containsExactly(3);
    assertThat(cli.run("search", "-Verbose", "--json").exit()).as("ranked modes too").isZero();
  }

  @Test
  void afterDoubleDashEveryWordIsTheQuery() {
    Result r = cli.run("search", "--mode", "literal", "--json", "--", "-1");
    assertThat(r.json()).extracting(h -> h.get("line").asInt()).containsExactly(4);
    assertThat(cli.run("search", "--json", "--mode", "literal", "--", "--help").exit())
        .isZero();
    assertThat(cli.run("search", "--json", "--mode", "literal", "--", "-V").out())
        .doesNotContain("prism-index 0.");
  }

  @Test
  void optionsAfterDoubleDashAreNamedWithTheFix() {
    assertUsage(cli.run("search", "--", "-1", "--mode", "literal"),
        "prism-index search: everything after -- is the query, so '--mode' is not read as an"
            + " option there: put the options before --, as in prism-index search --mode literal"
            + " -- -1");
  }

  @Test
  void helpAndVersionAreOptionsOnlyAsWholeWordsBeforeTheQuery() {
    Result version = cli.run("search", "-V");
    assertThat(version.exit()).isZero();
    assertThat(version.out()).startsWith("prism-index ");
    Result help = cli.run("search", "--mode", "literal", "-h");
    assertThat(help.exit()).isZero();
    assertThat(help.out()).startsWith("Usage: prism-index search");
    assertUsage(cli.run("search", "needle", "--help"), "--help after the query is a word of it,"
        + " not an option (a query may start with -): to see the help, put it first:"
        + " prism-index search --help");
    assertUsage(cli.run("search", "needle", "-V"), "-V after the query is a word of it");
  }

  @Test
  void helpOrVersionWithJsonIsAUsageErrorNotText() {
    assertUsage(cli.run("search", "-h", "--json"), "-h prints text and --json asks for NDJSON"
        + " only: give one of them");
    assertUsage(cli.run("search", "--json", "--version", "needle"), "--version prints text");
  }

  @Test
  void aDashAndOneLetterThatIsNoOptionSaysWhereSuchAQueryGoes() {
    assertUsage(cli.run("search", "-v"), "prism-index search: unknown option '-v'; a query that"
        + " starts with - goes after --: prism-index search -- -v");
  }

  @Test
  void clustersAndAttachedValuesAreStillOptions() {
    Result r = cli.run("search", "needle", "--mode", "literal", "-nC0");
    assertThat(r.exit()).as(r.toString()).isZero();
    Result attached = cli.run("search", "-tpython", "snake", "--json");
    assertThat(attached.json()).isNotEmpty().allSatisfy(h ->
        assertThat(h.get("language").asText()).isEqualTo("python"));
    assertUsage(cli.run("search", "--limt", "5", "reactive"),
        "unknown option '--limt'; did you mean --limit?");
  }

  @Test
  void atTheTopLevelHelpAndVersionStandAloneToo() {
    assertUsage(cli.run("-Verbose"), "unknown option '-Verbose'");
  }
}
