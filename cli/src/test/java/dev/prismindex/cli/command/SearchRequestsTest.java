package dev.prismindex.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one search validator: the same rules for the command line and the MCP tool, each surface's
 * own spelling in the messages (the end-to-end messages are asserted in UsageTest and
 * McpToolsTest).
 */
class SearchRequestsTest {

  private static final Path ROOT = repository();
  private static final Target TARGET = new Target(ROOT, ROOT.resolve(".prism-index"));

  /** A repository with one directory, {@code src} (a --path must exist). */
  private static Path repository() {
    try {
      Path root = Files.createTempDirectory("prism-search-requests-");
      Files.createDirectories(root.resolve("src"));
      root.resolve("src").toFile().deleteOnExit();
      root.toFile().deleteOnExit();
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
  private static final SearchSurface CLI = SearchSurface.commandLine(false);
  private static final SearchSurface TOOL = new SearchSurface(SearchSurface.Syntax.TOOL_ARGUMENTS,
      List.of(SearchMode.LEXICAL, SearchMode.LITERAL), true, 7);

  private static SearchRequest validate(SearchSurface surface, Map<String, ?> args)
      throws CliFailure {
    return SearchRequests.validate(RawSearchArgs.of(args), surface, () -> TARGET);
  }

  private static String usage(SearchSurface surface, Map<String, ?> args) {
    try {
      validate(surface, args);
    } catch (CliFailure e) {
      assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
      return e.getMessage();
    }
    throw new AssertionError("valid: " + args);
  }

  @Test
  void defaultsAreTheSameForEverySurface() throws CliFailure {
    SearchRequest cli = validate(CLI, Map.of("query", "parse"));
    assertThat(cli).isEqualTo(new SearchRequest(TARGET, false, "parse", null, 10, false,
        true, SearchRequests.DEFAULT_MAX_REFRESH_FILES));
    SearchRequest tool = validate(TOOL, Map.of("query", "parse"));
    assertThat(tool).isEqualTo(new SearchRequest(TARGET, true, "parse", null, 10, false,
        true, 7));
    assertThat(tool.modeName()).isEqualTo("auto");
  }

  @Test
  void aPathThatDoesNotExistIsAUsageErrorNamingIt() {
    assertThat(usage(CLI, Map.of("query", "x", "path", "no/such/dir")))
        .startsWith("--path no/such/dir: no such file or directory in the repository ");
    assertThat(usage(TOOL, Map.of("query", "x", "path", "./gone.txt")))
        .startsWith("path gone.txt: no such file or directory");
  }

  @Test
  void everyArgumentIsNormalised() throws CliFailure {
    SearchRequest r = validate(TOOL, Map.of("query", "x", "mode", "LITERAL", "limit", 5.0,
        "path", "./src/", "caseSensitive", true));
    assertThat(r.mode()).isEqualTo(SearchMode.LITERAL);
    assertThat(r.limit()).isEqualTo(5);
    assertThat(r.files().scopes()).containsExactly("src");
    assertThat(r.caseSensitive()).isTrue();
  }

  @Test
  void theSameRuleSpeaksEachSurfacesLanguage() {
    assertThat(usage(CLI, Map.of())).isEqualTo("missing QUERY: prism-index search \"QUERY\"");
    assertThat(usage(TOOL, Map.of("query", 3)))
        .isEqualTo("query is required and must be a non-blank string");
    assertThat(usage(CLI, Map.of("query", "x", "limit", 0)))
        .isEqualTo("invalid --limit 0: expected 1..10000");
    assertThat(usage(TOOL, Map.of("query", "x", "limit", 0)))
        .isEqualTo("invalid maxMatches 0: expected an integer 1..10000");
    assertThat(usage(TOOL, Map.of("query", "x", "limit", "5")))
        .isEqualTo("maxMatches must be an integer 1..10000, not a string ('5')");
    assertThat(usage(CLI, Map.of("query", "x", "caseSensitive", true)))
        .startsWith("--case-sensitive applies to --mode literal and regex only");
    assertThat(usage(TOOL, Map.of("query", "x", "caseSensitive", true)))
        .startsWith("caseSensitive applies to mode literal only");
    assertThat(usage(CLI, Map.of("query", "x", "path", "../up"))).startsWith("invalid --path: ");
    assertThat(usage(TOOL, Map.of("query", "x", "path", "../up"))).startsWith("invalid path: ");
    // One path rule (core's RelativePath): "/" is the separator, a backslash is refused.
    assertThat(usage(CLI, Map.of("query", "x", "path", "src\\main"))).startsWith("invalid --path: ")
        .contains("/");
  }

  @Test
  void modesAreTheSurfacesOwn() {
    assertThat(usage(CLI, Map.of("query", "x", "mode", "fuzzy")))
        .isEqualTo("invalid --mode 'fuzzy': expected lexical, semantic, hybrid, literal, regex"
            + " or auto");
    assertThat(usage(TOOL, Map.of("query", "x", "mode", "hybrid")))
        .isEqualTo("unsupported mode 'hybrid': expected one of lexical, literal (semantic and"
            + " hybrid need an embedding model, which this server does not have)");
    assertThat(usage(TOOL, Map.of("query", "x", "mode", 1)))
        .isEqualTo("mode must be a string, one of lexical, literal, not a number (1)");
  }

  @Test
  void unknownArgumentsAndTheQueryLimitComeFirst() {
    assertThat(usage(TOOL, Map.of("query", "x", "regex", 3)))
        .isEqualTo("unknown argument 'regex': expected caseSensitive, context, glob, maxMatches,"
            + " mode, path, query, repos, type");
    String huge = "x".repeat(SearchRequests.MAX_QUERY_BYTES + 1);
    assertThat(usage(CLI, Map.of("query", huge, "limit", 0))).isEqualTo("the query is "
        + (SearchRequests.MAX_QUERY_BYTES + 1) + " bytes (UTF-8): at most "
        + SearchRequests.MAX_QUERY_BYTES + " bytes are allowed");
  }

  @Test
  void theTargetIsResolvedOnlyAfterTheArguments() throws CliFailure {
    SearchRequests.TargetSource failing = () -> {
      throw CliFailure.usage("--repo nowhere is not a directory");
    };
    assertThatThrownBy(() -> SearchRequests.validate(new RawSearchArgs(), CLI, failing))
        .hasMessageStartingWith("missing QUERY");
    assertThatThrownBy(() -> SearchRequests.validate(
        new RawSearchArgs().put(RawSearchArgs.QUERY, "x"), CLI, failing))
        .hasMessage("--repo nowhere is not a directory");
  }

  @Test
  void theRefreshPolicyIsCheckedOnce() {
    assertThat(usage(CLI, Map.of("query", "x", "maxRefreshFiles", -1)))
        .isEqualTo("invalid --max-refresh-files -1: expected 0 or more");
  }

  @Test
  void contextTakesMinusBAndMinusAOverMinusC() throws CliFailure {
    SearchRequest both = validate(CLI, Map.of("query", "x", "context", 3));
    assertThat(both.contextBefore()).isEqualTo(3);
    assertThat(both.contextAfter()).isEqualTo(3);
    SearchRequest mixed = validate(CLI, Map.of("query", "x", "context", 3, "beforeContext", 0,
        "afterContext", 5));
    assertThat(mixed.contextBefore()).isZero();
    assertThat(mixed.contextAfter()).isEqualTo(5);
    SearchRequest none = validate(CLI, Map.of("query", "x"));
    assertThat(none.contextBefore() + none.contextAfter()).isZero();
  }

  @Test
  void contextIsRangeChecked() {
    assertThat(usage(CLI, Map.of("query", "x", "context", -1)))
        .isEqualTo("invalid --context -1: expected 0..20");
    assertThat(usage(CLI, Map.of("query", "x", "afterContext", 21)))
        .isEqualTo("invalid --after-context 21: expected 0..20");
    assertThat(usage(TOOL, Map.of("query", "x", "context", "2")))
        .isEqualTo("context must be an integer 0..20, not a string ('2')");
  }

  @Test
  void typesAreKnownLanguagesWithASuggestionOtherwise() throws CliFailure {
    assertThat(validate(CLI, Map.of("query", "x", "type", List.of("Java", "python"))).files()
        .languages()).containsExactly("java", "python");
    assertThat(usage(CLI, Map.of("query", "x", "type", "jav")))
        .isEqualTo("unknown --type 'jav'; did you mean java? (see `prism-index search"
            + " --type-list`)");
    assertThat(usage(TOOL, Map.of("query", "x", "type", "cobol")))
        .startsWith("unknown type 'cobol' (known: c, cpp, csharp,");
    assertThat(usage(TOOL, Map.of("query", "x", "type", 3)))
        .isEqualTo("type must be a string or an array of strings, not a number (3)");
  }

  @Test
  void globsAreCheckedAndKeptInOrder() throws CliFailure {
    assertThat(validate(CLI, Map.of("query", "x", "glob", List.of("*.java", "!gen/"))).files()
        .globs()).containsExactly("*.java", "!gen/");
    assertThat(usage(CLI, Map.of("query", "x", "glob", "[abc")))
        .startsWith("--glob: invalid glob '[abc'");
    assertThat(usage(TOOL, Map.of("query", "x", "glob", List.of("*.{ts,tsx}"))))
        .startsWith("glob: invalid glob '*.{ts,tsx}': braces");
  }

  @Test
  void severalPathsAreAUnionAndEachMustExist() throws CliFailure {
    assertThat(validate(CLI, Map.of("query", "x", "path", List.of("./src/", "src", "."))).files()
        .scopes()).as("the whole repository absorbs the others").isEmpty();
    assertThat(validate(CLI, Map.of("query", "x", "path", List.of("src/", "src"))).files()
        .scopes()).containsExactly("src");
    assertThat(usage(CLI, Map.of("query", "x", "path", List.of("src", "nope"))))
        .startsWith("--path nope: no such file or directory");
  }

  @Test
  void argumentsWinOverTheDefaultsAndTheDefaultsExcludesAlwaysApply() throws CliFailure {
    SearchConfig config = new SearchConfig(SearchMode.LITERAL, true, 30, 2, List.of("gen/"));
    SearchRequests.ConfigSource source = t -> config;
    SearchRequest defaults = SearchRequests.validate(RawSearchArgs.of(Map.of("query", "x")), CLI,
        () -> TARGET, source);
    assertThat(defaults.mode()).isEqualTo(SearchMode.LITERAL);
    assertThat(defaults.limit()).isEqualTo(30);
    assertThat(defaults.contextBefore()).isEqualTo(2);
    assertThat(defaults.contextAfter()).isEqualTo(2);
    assertThat(defaults.files().globs()).containsExactly("!gen/");
    assertThat(defaults.files().test("gen/A.java")).isFalse();

    SearchRequest given = SearchRequests.validate(RawSearchArgs.of(Map.of("query", "x",
        "mode", "auto", "limit", 5, "afterContext", 0, "glob", "*.java")), CLI, () -> TARGET,
        source);
    assertThat(given.mode()).as("--mode auto overrides a default mode").isNull();
    assertThat(given.limit()).isEqualTo(5);
    assertThat(given.contextBefore()).as("the default context, on the side not given")
        .isEqualTo(2);
    assertThat(given.contextAfter()).isZero();
    assertThat(given.files().globs()).containsExactly("*.java", "!gen/");
    assertThat(given.files().test("gen/A.java")).as("the default exclude comes last").isFalse();
    assertThat(given.files().test("src/A.java")).isTrue();
  }

  @Test
  void caseSensitivityIsJudgedWithTheDefaultMode() throws CliFailure {
    SearchRequests.ConfigSource literal = t -> new SearchConfig(SearchMode.LITERAL, true, null,
        null, List.of());
    assertThat(SearchRequests.validate(RawSearchArgs.of(Map.of("query", "x", "caseSensitive",
        true)), CLI, () -> TARGET, literal).caseSensitive()).isTrue();
  }
}
