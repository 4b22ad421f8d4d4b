package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The grep habits of {@code search}: context lines ({@code -C}, {@code -A}, {@code -B}), file
 * filters ({@code --type}, {@code --glob}, several {@code --path}), {@code .prismignore}, the
 * truncation line, and the defaults of {@code .prism-index.toml} and the environment.
 */
class GrepHabitsTest {

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    cli.write("notes/lines.txt", """
        one
        two needle
        three
        four needle
        five
        six
        seven
        eight
        nine needle
        ten
        """);
    cli.write("notes/other.txt", "alpha\nneedle beta\ngamma\n");
  }

  private static void assertUsage(Result r, String message) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message);
  }

  // ---------------------------------------------------------------------------------------------
  // context

  @Test
  void contextLinesAreGrepStyleAndOverlappingContextsMergeIntoOneGroup() {
    Result r = cli.run("search", "needle", "--mode", "literal", "-C", "1", "--path", "notes");
    assertThat(r.exit()).as(r.toString()).isZero();
    // Exact modes: grep's lines as the hits come, nothing else on stdout; path:line:column:text.
    assertThat(r.outLines()).containsExactly(
        "notes/lines.txt-1-one",
        "notes/lines.txt:2:5:two needle",
        "notes/lines.txt-3-three",
        "notes/lines.txt:4:6:four needle",
        "notes/lines.txt-5-five",
        "--",
        "notes/lines.txt-8-eight",
        "notes/lines.txt:9:6:nine needle",
        "notes/lines.txt-10-ten",
        "--",
        "notes/other.txt-1-alpha",
        "notes/other.txt:2:1:needle beta",
        "notes/other.txt-3-gamma");
  }

  @Test
  void contextsThatOnlyTouchAreOneGroupAndMinusAMinusBChooseTheSides() {
    Result r = cli.run("search", "needle", "--mode", "literal", "-A", "2", "-B", "0",
        "--path", "notes/lines.txt");
    // Line 4 is a hit inside line 2's after-context: it shows as a hit (held back until known).
    assertThat(r.outLines()).containsExactly(
        "notes/lines.txt:2:5:two needle",
        "notes/lines.txt-3-three",
        "notes/lines.txt:4:6:four needle",
        "notes/lines.txt-5-five",
        "notes/lines.txt-6-six",
        "--",
        "notes/lines.txt:9:6:nine needle",
        "notes/lines.txt-10-ten");
  }

  @Test
  void rankedHitsKeepTheirOrderGroupByGroup() {
    // Ranks: line 5 (parseDuration), 13 (formatDuration), 4 (the class). Lines 4 and 5 form one
    // group, placed by its best hit; a hit inside another's context shows as a hit.
    Result r = cli.run("search", "parseDuration", "--mode", "lexical", "-C", "1");
    assertThat(r.exit()).as(r.toString()).isZero();
    String path = "src/main/java/demo/Duration.java";
    assertThat(r.outLines().subList(2, r.outLines().size())).containsExactly(
        path + "-3-/** Parses durations such as 5s or 2m. */",
        path + ":4:public final class Duration {",
        path + ":5:  public static long parseDuration(String text) {",
        path + "-6-    if (text.endsWith(\"ms\")) {",
        "--",
        path + "-12-  /** Formats a duration in milliseconds. */",
        path + ":13:  public static String formatDuration(long millis) {",
        path + "-14-    return millis + \"ms\";");
  }

  @Test
  void jsonHitsCarryTheirOwnContextArrays() {
    List<JsonNode> hits = cli.run("search", "needle", "--mode", "literal", "--json", "-B", "1",
        "-A", "2", "--path", "notes/lines.txt").json();
    assertThat(hits).hasSize(3);
    JsonNode first = hits.get(0);
    assertThat(first.get("before").toString()).isEqualTo("[\"one\"]");
    assertThat(first.get("text").asText()).isEqualTo("two needle");
    assertThat(first.get("after").toString()).isEqualTo("[\"three\",\"four needle\"]");
    assertThat(hits.get(1).get("before").toString()).as("overlaps are repeated per hit")
        .isEqualTo("[\"three\"]");
    assertThat(hits.get(2).get("after").toString()).isEqualTo("[\"ten\"]");
    assertThat(first.get("v").asInt()).isEqualTo(1);
    assertThat(cli.run("search", "needle", "--mode", "literal", "--json").json())
        .allSatisfy(h -> assertThat(h.has("before") || h.has("after") || h.has("text"))
            .as("no context asked: no context fields").isFalse());
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "21"})
  void contextOutOfRangeIsAUsageError(String n) {
    assertUsage(cli.run("search", "x", "-C", n), "invalid --context " + n + ": expected 0..20");
    assertUsage(cli.run("search", "x", "-A", n), "invalid --after-context " + n);
    assertUsage(cli.run("search", "x", "-B", n), "invalid --before-context " + n);
  }

  @Test
  void contextThatIsNotANumberIsAUsageError() {
    assertUsage(cli.run("search", "x", "-C", "two"), "'two' is not an int");
  }

  // ---------------------------------------------------------------------------------------------
  // filters

  @Test
  void typeKeepsOnlyThatLanguageAndCommasOrRepetitionGiveSeveral() {
    assertThat(cli.run("search", "durations", "--json", "--mode", "lexical", "-t", "markdown")
        .json()).isNotEmpty().allSatisfy(h -> assertThat(h.get("path").asText())
            .isEqualTo("README.md"));
    assertThat(cli.run("search", "snake durations", "--json", "--mode", "lexical",
        "--type", "python,markdown").json()).extracting(h -> h.get("language").asText())
        .containsOnly("python", "markdown").contains("python", "markdown");
    assertThat(cli.run("search", "snake durations", "--json", "--mode", "lexical",
        "-t", "python", "-t", "markdown").json()).extracting(h -> h.get("language").asText())
        .containsOnly("python", "markdown");
  }

  @Test
  void anUnknownTypeIsAUsageErrorWithASuggestion() {
    assertUsage(cli.run("search", "x", "-t", "pyton"),
        "prism-index search: unknown --type 'pyton'; did you mean python? (see `prism-index"
            + " search --type-list`)");
  }

  @Test
  void typeListPrintsEveryLanguageWithItsFileNames() {
    Result r = cli.run("search", "--type-list");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).contains("java: *.java", "dockerfile: Dockerfile",
        "python: *.py, *.pyi");
    assertThat(r.out()).contains("text: *.txt (and every file no other type names)");
  }

  @Test
  void globsIncludeAndExclude() {
    assertThat(cli.run("search", "needle", "--mode", "literal", "--json", "-g", "lines.txt")
        .json()).hasSize(3).allSatisfy(h -> assertThat(h.get("path").asText())
            .isEqualTo("notes/lines.txt"));
    assertThat(cli.run("search", "duration durations", "--mode", "lexical", "--json", "-g",
        "!src/")
        .json()).isNotEmpty().noneSatisfy(h -> assertThat(h.get("path").asText())
            .startsWith("src/"));
    assertThat(cli.run("search", "needle", "--mode", "literal", "--json", "-g", "*.txt", "-g",
        "!other.txt").json()).extracting(h -> h.get("path").asText())
        .containsOnly("notes/lines.txt");
  }

  @Test
  void aBadGlobIsAUsageError() {
    assertUsage(cli.run("search", "x", "-g", "[abc"), "prism-index search: --glob: invalid glob"
        + " '[abc'");
    assertUsage(cli.run("search", "x", "-g", "*.{java,py}"), "braces are not gitignore syntax");
  }

  @Test
  void severalPathsAreSearchedTogether() {
    List<JsonNode> hits = cli.run("search", "durations snake", "--mode", "lexical", "--json",
        "--path", "tools", "--path", "README.md").json();
    assertThat(hits).extracting(h -> h.get("path").asText())
        .containsOnly("tools/strings.py", "README.md").contains("tools/strings.py", "README.md");
    assertUsage(cli.run("search", "x", "--path", "tools", "--path", "gone"),
        "--path gone: no such file or directory in the repository");
  }

  // ---------------------------------------------------------------------------------------------
  // truncation

  @Test
  void humanOutputSaysWhenTheLimitCutTheAnswer() {
    Result cut = cli.run("search", "needle", "--mode", "literal", "--limit", "2");
    assertThat(cut.outLines()).hasSize(2);
    assertThat(cut.err()).contains("note: 2 of at least 3 hits shown; --limit to see more");
    Result whole = cli.run("search", "needle", "--mode", "literal", "--limit", "4");
    assertThat(whole.err()).doesNotContain("--limit to see more");
    Result all = cli.run("search", "needle", "--mode", "literal");
    assertThat(all.outLines()).as("exact modes: every match without a limit").hasSize(4);
    Result ranked = cli.run("search", "needle", "--mode", "lexical", "--limit", "1");
    assertThat(ranked.outLines()).last().asString().contains("--limit to see more");
    assertThat(cli.run("search", "needle", "--mode", "literal", "--limit", "2", "--json").out())
        .as("NDJSON is hits only").doesNotContain("see more");
  }

  // ---------------------------------------------------------------------------------------------
  // .prismignore

  @Test
  void aPrismignoredFileLeavesTheAnswersAtTheNextSearch() throws Exception {
    assertThat(cli.run("search", "needle", "--mode", "literal", "--json").json())
        .anySatisfy(h -> assertThat(h.get("path").asText()).isEqualTo("notes/other.txt"));
    cli.write(".prismignore", "other.txt\n");
    Result r = cli.run("search", "needle", "--mode", "literal", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json()).isNotEmpty().noneSatisfy(h -> assertThat(h.get("path").asText())
        .isEqualTo("notes/other.txt"));
    assertThat(cli.run("status", "--json").out()).as("4 + 2 notes + .prismignore - 1")
        .contains("\"files\":6");
  }

  // ---------------------------------------------------------------------------------------------
  // configuration

  @Test
  void theRepositoryConfigurationSetsTheDefaults() throws Exception {
    cli.write(".prism-index.toml", """
        # defaults for this repository
        [search]
        mode = "literal"
        limit = 1
        context = 1
        exclude = ["src/"]
        """);
    List<JsonNode> hits = cli.run("search", "needle", "--json").json();
    assertThat(hits).hasSize(1);
    assertThat(hits.get(0).get("mode").asText()).isEqualTo("literal");
    assertThat(hits.get(0).get("before").size()).isEqualTo(1);
    assertThat(cli.run("search", "duration", "--json", "--limit", "50").json())
        .as("exclude applies").isNotEmpty().noneSatisfy(h -> assertThat(h.get("path").asText())
            .startsWith("src/"));
  }

  @Test
  void optionsWinOverVariablesWhichWinOverFiles() throws Exception {
    cli.write(".prism-index.toml", "[search]\nmode = \"literal\"\nlimit = 1\n");
    assertThat(cli.run("search", "needle", "--json").json()).hasSize(1);
    cli.variables.put("PRISM_INDEX_LIMIT", "2");
    assertThat(cli.run("search", "needle", "--json").json()).as("variable over file").hasSize(2);
    assertThat(cli.run("search", "needle", "--json", "--limit", "3").json()).as("option over all")
        .hasSize(3);
    cli.variables.put("PRISM_INDEX_MODE", "lexical");
    assertThat(cli.run("search", "needle", "--json").json().get(0).get("mode").asText())
        .isEqualTo("lexical");
    assertThat(cli.run("search", "needle", "--json", "--mode", "literal").json().get(0).get("mode")
        .asText()).isEqualTo("literal");
    assertThat(cli.run("search", "needle", "--json", "--no-config").json())
        .as("--no-config drops the file, not the variables").hasSize(2);
  }

  @Test
  void theUsersConfigurationIsTheLastDefault() throws Exception {
    Path home = Files.createDirectories(repo.resolve("../home-" + repo.getFileName()));
    cli.variables.put("HOME", home.toString());
    Files.createDirectories(home.resolve(".config/prism-index"));
    Files.writeString(home.resolve(".config/prism-index/config.toml"),
        "[search]\nlimit = 2\nmode = \"literal\"\n");
    assertThat(cli.run("search", "needle", "--json").json()).hasSize(2);
    cli.write(".prism-index.toml", "[search]\nlimit = 1\n");
    List<JsonNode> hits = cli.run("search", "needle", "--json").json();
    assertThat(hits).as("the repository's file wins, setting by setting").hasSize(1);
    assertThat(hits.get(0).get("mode").asText()).isEqualTo("literal");
  }

  @Test
  void aMalformedConfigurationIsAUsageErrorNamingFileAndLine() throws Exception {
    Path file = cli.write(".prism-index.toml", "[search]\nlimit = 1\nmode = literal\n");
    assertUsage(cli.run("search", "x"), file + ":3: invalid TOML");
    cli.write(".prism-index.toml", "[search]\nlimit = 1\nlimt = 2\n");
    assertUsage(cli.run("search", "x"), file + ":3: unknown setting 'search.limt'");
    cli.write(".prism-index.toml", "[search]\n\nlimit = \"ten\"\n");
    assertUsage(cli.run("search", "x"), file + ":3: search.limit must be an integer 1..10000,"
        + " not a string ('ten')");
    cli.write(".prism-index.toml", "[search]\ncontext = 50\n");
    assertUsage(cli.run("search", "x"), file + ":2: invalid search.context 50: expected 0..20");
    cli.write(".prism-index.toml", "[search]\nmode = \"fuzzy\"\n");
    assertUsage(cli.run("search", "x"), file + ":2: invalid mode 'fuzzy': expected lexical,"
        + " semantic, hybrid, literal, regex or auto");
    cli.write(".prism-index.toml", "[search]\nexclude = [\"ok/\", \"[bad\"]\n");
    assertUsage(cli.run("search", "x"), file + ":2: invalid search.exclude: invalid glob"
        + " '[bad'");
    cli.write(".prism-index.toml", "limit = 3\n");
    assertUsage(cli.run("search", "x"), file + ":1: unknown setting 'limit' (settings go in the"
        + " [search] table");
    assertThat(cli.run("search", "needle", "--no-config").exit()).isZero();
  }

  @Test
  void aBadVariableIsAUsageErrorNamingIt() {
    cli.variables.put("PRISM_INDEX_CONTEXT", "lots");
    assertUsage(cli.run("search", "x"),
        "invalid PRISM_INDEX_CONTEXT 'lots': expected an integer 0..20");
    cli.variables.remove("PRISM_INDEX_CONTEXT");
    cli.variables.put("PRISM_INDEX_MODE", "fast");
    assertUsage(cli.run("search", "x"), "invalid mode 'fast'");
  }
}
