package dev.prismindex.cli;

import dev.prismindex.cli.command.ExitCode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Harness.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exit code 2 for every kind of bad usage, found before the index is touched; help and version. */
class UsageTest {

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    cli.smallRepository();
  }

  private void assertUsage(Result r, String message) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message);
    assertThat(r.err().strip()).doesNotContain("\n");
    assertThat(repo.resolve(".prism-index")).doesNotExist();
  }

  @Test
  void versionPrintsTheProjectVersion() {
    Result r = cli.run("--version");
    assertThat(r.exit()).isZero();
    List<String> lines = r.outLines();
    assertThat(lines.get(0)).matches("prism-index \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"
        + "( \\(commit [0-9a-f]{12}\\))?");
    assertThat(lines).hasSize(4);
    assertThat(lines.get(1)).startsWith("model:          ");
    assertThat(lines.get(2)).matches("native library: libprism-native\\.so (loaded|not loaded: .+)");
    assertThat(lines.get(3)).startsWith("java:           " + Runtime.version());
    assertThat(r.err()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "index", "search", "status"})
  void everyCommandHasHelp(String command) {
    Result r = command.isEmpty() ? cli.run("--help") : cli.run(command, "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("Usage: prism-index" + (command.isEmpty() ? "" : " " + command));
    assertThat(r.err()).isEmpty();
  }

  @Test
  void helpListsTheExitCodes() {
    assertThat(cli.run("--help").out()).contains("3 index missing").contains("4 embedding model");
  }

  @Test
  void noCommand() {
    assertUsage(cli.run(), "prism-index: missing command: index, search, status, serve, mcp, doctor or"
        + " completion");
  }

  @Test
  void unknownCommand() {
    assertUsage(cli.run("find", "x"),
        "prism-index: unknown command 'find': expected index, search, status, serve, mcp,"
        + " doctor or completion");
  }

  @Test
  void missingQuery() {
    assertUsage(cli.run("search"), "prism-index search: missing QUERY");
  }

  @Test
  void blankQuery() {
    assertUsage(cli.run("search", "   "), "prism-index search: missing QUERY");
  }

  @Test
  void invalidMode() {
    assertUsage(cli.run("search", "x", "--mode", "fuzzy"),
        "prism-index search: invalid --mode 'fuzzy': expected lexical, semantic, hybrid, literal,"
            + " regex or auto");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "10001"})
  void limitOutOfRange(String limit) {
    assertUsage(cli.run("search", "x", "--limit", limit),
        "prism-index search: invalid --limit " + limit + ": expected 1..10000");
  }

  @Test
  void limitNotANumber() {
    assertUsage(cli.run("search", "x", "--limit", "ten"), "prism-index search: invalid value for"
        + " option '--limit': 'ten' is not an int");
  }

  @Test
  void unknownOption() {
    assertUsage(cli.run("search", "x", "--fuzzy"),
        "prism-index search: unknown option '--fuzzy' (see `prism-index search --help`)");
  }

  @Test
  void aMistypedOptionIsNamedAloneWithTheClosestOne() {
    Result r = cli.run("search", "--limt", "5", "reactive");
    assertUsage(r, "prism-index search: unknown option '--limt'; did you mean --limit?");
    assertThat(r.err()).doesNotContain("'reactive'").doesNotContain("'5'");
  }

  @Test
  void aPathThatDoesNotExistIsExit2NamingIt() {
    Result r = cli.run("search", "x", "--path", "no/such/dir");
    assertUsage(r, "--path no/such/dir: no such file or directory in the repository");
  }

  @Test
  void secondQueryWord() {
    assertUsage(cli.run("search", "two", "words"), "prism-index search: 2 words where one QUERY"
        + " goes: quote a query of several words");
  }

  @ParameterizedTest
  @ValueSource(strings = {"auto", "literal", "lexical", "semantic", "hybrid"})
  void queryOverTheByteLimitInEveryMode(String mode) {
    String query = "\u00e9".repeat(2_049); // 2,049 characters, 4,098 UTF-8 bytes
    assertUsage(mode.equals("auto") ? cli.run("search", query) : cli.run("search", query,
        "--mode", mode), "prism-index search: the query is 4098 bytes (UTF-8): at most 4096 bytes"
        + " are allowed");
  }

  @Test
  void queryOfExactlyTheByteLimitIsNotAUsageError() {
    Result r = cli.run("search", "\u00e9".repeat(2_047) + "ab");
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.INDEX);
  }

  @Test
  void caseSensitiveOutsideLiteralMode() {
    assertUsage(cli.run("search", "x", "--case-sensitive"),
        "--case-sensitive applies to --mode literal and regex only");
  }

  @Test
  void pathScopeLeavingTheRepository() {
    assertUsage(cli.run("search", "x", "--path", "../elsewhere"), "invalid --path");
  }

  @Test
  void negativeRefreshPolicy() {
    assertUsage(cli.run("search", "x", "--max-refresh-files", "-1"),
        "invalid --max-refresh-files -1");
  }

  @Test
  void repoThatIsNotADirectory() throws Exception {
    Path file = Files.writeString(repo.resolve("file.txt"), "x");
    assertUsage(cli.run("--repo", file.toString(), "status"), "is not a directory");
  }

  @Test
  void indexRejectsSearchOptions() {
    assertUsage(cli.run("index", "--limit", "3"), "prism-index index: unknown option '--limit'");
  }

  @Test
  void globalOptionsWorkBeforeAndAfterTheCommand() throws Exception {
    Path sub = Files.createDirectories(repo.resolve("elsewhere"));
    cli.cwd = sub;
    assertThat(cli.run("--repo", repo.toString(), "index").exit()).isZero();
    assertThat(cli.run("search", "parseDuration", "--repo", repo.toString()).exit()).isZero();
    assertThat(cli.run("--repo", repo.toString(), "search", "parseDuration").exit()).isZero();
  }
}
