package dev.prismindex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.command.SearchRequest;
import dev.prismindex.cli.command.SearchRequests;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.output.JsonPrinter;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.cli.serve.WarmBackend;
import dev.prismindex.cli.serve.WarmBackendTest;
import dev.prismindex.repository.SearchMode;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The MCP tools' handlers in process, over a {@link WarmBackend} with the bag-of-words embedder:
 * the same hits as {@code search --json} in every mode, argument validation, status, reindex and the
 * catch-up before a search. {@link McpServerIT} drives the real server process with the SDK's client.
 */
class McpToolsTest {

  @TempDir Path repo;
  Harness cli;
  WarmBackend warm;
  McpTools tools;
  Target target;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    warm = new WarmBackend(cli.environment());
    target = new Target(repo.toAbsolutePath().normalize(),
        repo.toAbsolutePath().normalize().resolve(".prism-index"));
    tools = new McpTools(warm, target, true, SearchRequests.DEFAULT_MAX_REFRESH_FILES,
        McpJsonDefaults.getMapper());
  }

  @AfterEach
  void tearDown() throws Exception {
    warm.close();
  }

  private static Map<String, Object> args(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  static String text(CallToolResult r) {
    assertThat(r.content()).hasSize(1);
    return ((TextContent) r.content().get(0)).text();
  }

  private static JsonNode structured(CallToolResult r) {
    assertThat(r.isError()).as(text(r)).isFalse();
    return Harness.JSON.valueToTree(r.structuredContent());
  }

  @ParameterizedTest
  @ValueSource(strings = {"lexical", "semantic", "hybrid", "literal", "auto"})
  void searchAnswersTheHitsOfTheCliInEveryMode(String mode) {
    String query = mode.equals("literal") ? "parseLong" : "parse duration";
    Result r = mode.equals("auto") ? cli.run("search", query, "--json")
        : cli.run("search", query, "--json", "--mode", mode);
    assertThat(r.exit()).as(r.toString()).isZero();
    // The tool's hits are the NDJSON hits; freshness is in the tool's object once, not per hit.
    List<JsonNode> expected = WarmBackendTest.withoutFreshness(r);
    assertThat(expected).isNotEmpty();

    CallToolResult result = tools.search(mode.equals("auto") ? args("query", query)
        : args("query", query, "mode", mode));
    JsonNode s = structured(result);

    assertThat(List.copyOf(Harness.JSON.convertValue(s.get("hits"), List.class)))
        .isEqualTo(Harness.JSON.convertValue(expected, List.class));
    assertThat(s.get("mode").asText()).isEqualTo(mode.equals("auto") ? "hybrid" : mode);
    assertThat(s.get("modeChosen").asBoolean()).isEqualTo(mode.equals("auto"));
    assertThat(s.get("untrustedIndex").asBoolean()).isTrue();
    assertThat(s.get("schemaVersion").asInt()).isEqualTo(JsonPrinter.SCHEMA_VERSION);
    // The text: one seam-rendered line per hit, in rank order.
    List<String> lines = text(result).lines().toList();
    assertThat(lines).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      JsonNode h = expected.get(i);
      assertThat(lines.get(i)).startsWith(h.get("path").asText() + ":" + h.get("line").asInt()
          + ":0:").endsWith(String.format(java.util.Locale.ROOT, " [score %.3f]",
          h.get("score").asDouble()));
    }
  }

  @Test
  void scopeLimitAndCaseSensitivityAreTheCliOptions() {
    List<JsonNode> expected = WarmBackendTest.withoutFreshness(cli.run("search",
        "stale parse snake", "--json", "--path", "./tools/", "--limit", "1"));
    // maxMatches: the contract's name (core's repo_search) for --limit.
    JsonNode s = structured(tools.search(args("query", "stale parse snake", "path", "./tools/",
        "maxMatches", 1)));
    assertThat(s.get("hits")).hasSize(1);
    assertThat(Harness.JSON.convertValue(s.get("hits"), List.class))
        .isEqualTo(Harness.JSON.convertValue(expected, List.class));

    assertThat(structured(tools.search(args("query", "PARSELONG", "mode", "literal",
        "caseSensitive", true))).get("hits")).isEmpty();
    assertThat(structured(tools.search(args("query", "PARSELONG", "mode", "literal")))
        .get("hits")).isNotEmpty();
  }

  @Test
  void contextTypeAndGlobAreTheCliOptions() {
    List<JsonNode> expected = WarmBackendTest.withoutFreshness(cli.run("search", "parseLong",
        "--json", "--mode", "literal", "-C", "1", "-t", "java", "-g", "!**/StaleCheck.java"));
    assertThat(expected).isNotEmpty().allSatisfy(h -> assertThat(h.has("before")).isTrue());
    CallToolResult r = tools.search(args("query", "parseLong", "mode", "literal", "context", 1,
        "type", "java", "glob", List.of("!**/StaleCheck.java")));
    JsonNode s = structured(r);
    assertThat(Harness.JSON.convertValue(s.get("hits"), List.class))
        .isEqualTo(Harness.JSON.convertValue(expected, List.class));
    // The text shows the context lines as core's repo_search does: path-text before, path+text
    // after each match line.
    String path = expected.get(0).get("path").asText();
    assertThat(text(r).lines().toList()).startsWith(
        path + "-" + expected.get(0).get("before").get(0).asText(),
        path + ":" + expected.get(0).get("line").asInt() + ":0:"
            + expected.get(0).get("snippet").asText() + " [score 1.000]",
        path + "+" + expected.get(0).get("after").get(0).asText());
    assertThat(structured(tools.search(args("query", "snake parse", "mode", "lexical", "type",
        "python"))).get("hits")).isNotEmpty().allSatisfy(h -> assertThat(h.get("language")
            .asText()).isEqualTo("python"));
  }

  @Test
  void aResultCutByMaxMatchesSaysMoreExist() {
    CallToolResult cut = tools.search(args("query", "parseLong", "mode", "literal",
        "maxMatches", 1));
    assertThat(structured(cut).get("truncated").asBoolean()).isTrue();
    assertThat(text(cut)).endsWith("\n[more hits exist: 1 shown; raise maxMatches to see more]");
    CallToolResult whole = tools.search(args("query", "parseLong", "mode", "literal"));
    assertThat(structured(whole).get("truncated").asBoolean()).isFalse();
    assertThat(text(whole)).doesNotContain("more hits exist");
  }

  @Test
  void theToolOffersTypeAndGlobAndContext() {
    @SuppressWarnings("unchecked")
    Map<String, Object> properties = (Map<String, Object>) tools.searchTool().inputSchema()
        .get("properties");
    assertThat(properties).containsKeys("type", "glob", "context");
  }

  @Test
  void aSnippetCannotForgeALineOfTheText() throws IOException {
    cli.write("src/Evil.java", "class Evil {\n  String s = \"ok\u2028src/Fake.java:1:1:pwned\";"
        + " // forgery\n}\n");
    CallToolResult r = tools.search(args("query", "forgery", "mode", "literal"));
    String text = text(r);
    assertThat(text.lines().filter(l -> l.startsWith("src/"))).hasSize(1);
    assertThat(text).contains("\\u2028src/Fake.java");
  }

  @Test
  void outputModeRendersTheSameHitsAsPathsOrTotals() {
    JsonNode content = structured(tools.search(args("query", "parseLong", "mode", "literal")));
    int hits = content.get("hits").size();
    java.util.Set<String> paths = new java.util.TreeSet<>();
    content.get("hits").forEach(h -> paths.add(h.get("path").asText()));
    assertThat(hits).isGreaterThan(1);
    CallToolResult files = tools.search(args("query", "parseLong", "mode", "literal",
        "outputMode", "files_with_matches"));
    assertThat(text(files)).isEqualTo(String.join("\n", paths));
    CallToolResult count = tools.search(args("query", "parseLong", "mode", "literal",
        "outputMode", "count"));
    assertThat(text(count)).isEqualTo(hits + " matches in " + paths.size()
        + (paths.size() == 1 ? " file" : " files"));
    assertThat(structured(count).get("hitCount").asInt()).isEqualTo(hits);
    assertThat(structured(count).get("fileCount").asInt()).isEqualTo(paths.size());
  }

  /** Issue 39: a file over the index's 1 MiB (within 8 MiB) is found by the literal mode. */
  @Test
  void literalSearchFindsALineNearTheEndOfAFileOverOneMiB() throws IOException {
    StringBuilder big = new StringBuilder();
    for (int i = 1; i <= 15_000; i++) {
      big.append("filler ").append(i).append(' ').append("w".repeat(90)).append('\n');
    }
    big.append("the zqxLargeNeedle line\n");
    cli.write("data/big.txt", big.toString());
    JsonNode s = structured(tools.search(args("query", "zqxLargeNeedle", "mode", "literal")));
    assertThat(s.get("hits")).hasSize(1);
    assertThat(s.get("hits").get(0).get("path").asText()).isEqualTo("data/big.txt");
    assertThat(s.get("hits").get(0).get("line").asInt()).isEqualTo(15_001);
    assertThat(structured(tools.search(args("query", "zqxLargeNeedle", "mode", "lexical")))
        .get("hits")).isEmpty();
  }

  @Test
  void zeroHitsSaysSo() {
    CallToolResult r = tools.search(args("query", "zzzqqqxxx", "mode", "lexical"));
    assertThat(text(r)).isEqualTo("(no matches)");
    assertThat(structured(r).get("hits")).isEmpty();
  }

  @Test
  void aSearchCatchesUpOnChangedFilesFirst() throws IOException {
    cli.write("src/main/java/demo/Fresh.java", "package demo;\nclass Fresh { int quokka; }\n");
    CallToolResult r = tools.search(args("query", "quokka", "mode", "lexical"));
    JsonNode s = structured(r);
    assertThat(s.get("hits").get(0).get("path").asText())
        .isEqualTo("src/main/java/demo/Fresh.java");
    assertThat(s.get("freshness").get("refreshedFiles").asInt()).isEqualTo(1);
    assertThat(text(r)).contains("[re-indexed 1 changed files first]");
  }

  @Test
  void aTreeStaleBeyondThePolicyIsAToolErrorThatNamesReindex() throws IOException {
    McpTools strict = new McpTools(warm, target, true, 0, McpJsonDefaults.getMapper());
    cli.write("src/main/java/demo/Fresh.java", "package demo;\nclass Fresh { int quokka; }\n");
    CallToolResult r = strict.search(args("query", "quokka"));
    assertThat(r.isError()).isTrue();
    assertThat(text(r)).startsWith("index is stale: 1 files changed").contains("reindex tool");
  }

  @Test
  void badArgumentsAreToolErrorsWithClearMessages() {
    // The contract's validation (core's repo_search) first, with its messages.
    assertError(null, "query is required and must be a non-empty string.");
    assertError(args(), "query is required and must be a non-empty string.");
    assertError(args("query", 42), "query is required and must be a non-empty string.");
    assertError(args("query", "x", "mode", "regex"),
        "repo_search no longer supports mode \"regex\"; use literal substring search.");
    assertError(args("query", "x", "mode", 3),
        "unsupported search mode: 3 (enabled: literal, lexical, semantic, hybrid)");
    assertError(args("query", "x", "maxMatches", 0),
        "maxMatches must be a positive safe integer at most 10000");
    assertError(args("query", "x", "maxMatches", 2.5),
        "maxMatches must be a positive safe integer at most 10000");
    assertError(args("query", "x", "maxMatches", "ten"),
        "maxMatches must be a positive safe integer at most 10000");
    assertError(args("query", "x", "context", -1),
        "context must be a non-negative safe integer at most 20");
    assertError(args("query", "x", "outputMode", "lines"), "unsupported outputMode: lines");
    // Then the CLI's one validator, with what the engine needs.
    assertError(args("query", "  "), "query is required and must be a non-blank string");
    // One limit: the contract's check refuses it first.
    assertError(args("query", "x", "maxMatches", 10001),
        "maxMatches must be a positive safe integer at most 10000");
    assertError(args("query", "x", "caseSensitive", true),
        "caseSensitive applies to mode literal only");
    assertError(args("query", "x", "path", "../elsewhere"), "invalid path: ");
    assertError(args("query", "x", "regex", true), "unknown argument 'regex': expected"
        + " caseSensitive, context, glob, maxMatches, mode, outputMode, path, query, type");
    assertError(args("query", "x", "type", "cobol"), "unknown type 'cobol' (known: ");
    assertError(args("query", "x", "type", List.of("java", 3)),
        "type must be a string or an array of strings");
    assertError(args("query", "x", "glob", "[x"), "glob: invalid glob '[x'");
    // Booleans are JSON booleans, in every tool alike (issue 41, item 7: caseSensitive took "no"
    // and 1 for false while reindex refused full: "yes").
    assertError(args("query", "x", "mode", "literal", "caseSensitive", "no"),
        "caseSensitive must be true or false, not a string ('no')");
    assertError(args("query", "x", "mode", "literal", "caseSensitive", 1),
        "caseSensitive must be true or false, not a number (1)");
    assertError(args("query", "x", "mode", "literal", "caseSensitive", "true"),
        "caseSensitive must be true or false, not a string ('true')");
    assertThat(tools.search(args("query", "x", "mode", "literal", "caseSensitive", false))
        .isError()).isFalse();
    CallToolResult r = tools.reindex(args("full", "yes"));
    assertThat(r.isError()).isTrue();
    assertThat(text(r)).isEqualTo("full must be true or false, not a string ('yes')");
    assertThat(text(tools.reindex(args("fast", true)))).isEqualTo(
        "unknown argument 'fast': expected full");
  }

  @Test
  void aQueryOverTheByteLimitIsAToolErrorNamingTheLimit() {
    for (String mode : List.of("literal", "lexical", "semantic", "hybrid")) {
      assertError(args("query", "x".repeat(4_097), "mode", mode),
          "the query is 4097 bytes (UTF-8): at most 4096 bytes are allowed");
    }
  }

  private void assertError(Map<String, Object> arguments, String message) {
    CallToolResult r = tools.search(arguments);
    assertThat(r.isError()).as(text(r)).isTrue();
    assertThat(text(r)).startsWith(message);
    assertThat(r.structuredContent()).isNull();
  }

  @Test
  void withoutAModelOnlyLexicalAndLiteralAreOffered() {
    McpTools lexical = new McpTools(warm, target, false, 200, McpJsonDefaults.getMapper());
    assertThat(lexical.modes()).extracting(SearchMode::wireName)
        .containsExactly("literal", "lexical");
    @SuppressWarnings("unchecked")
    Map<String, Object> mode = (Map<String, Object>) ((Map<String, Object>) lexical.searchTool()
        .inputSchema().get("properties")).get("mode");
    assertThat(mode.get("enum")).isEqualTo(List.of("literal", "lexical"));
    CallToolResult r = lexical.search(args("query", "x", "mode", "hybrid"));
    assertThat(r.isError()).isTrue();
    assertThat(text(r)).contains("need an embedding model");

    @SuppressWarnings("unchecked")
    Map<String, Object> all = (Map<String, Object>) ((Map<String, Object>) tools.searchTool()
        .inputSchema().get("properties")).get("mode");
    assertThat(all.get("enum")).isEqualTo(List.of("literal", "lexical", "semantic", "hybrid"));
  }

  @Test
  void statusIsTheObjectOfStatusJson() throws IOException {
    JsonNode s = structured(tools.status());
    JsonNode cliStatus = cli.run("status", "--json").json().get(0);
    assertThat(WarmBackendTest.normalise(s.toString()))
        .isEqualTo(WarmBackendTest.normalise(cliStatus.toString()));
    assertThat(s.get("state").asText()).isEqualTo("ready");

    cli.write("src/main/java/demo/Fresh.java", "package demo;\nclass Fresh { int quokka; }\n");
    JsonNode stale = structured(tools.status());
    assertThat(stale.get("state").asText()).isEqualTo("behind");
    assertThat(stale.get("changes").get("added").asInt()).isEqualTo(1);
  }

  @Test
  void statusOfAMissingIndexIsAResultAndASearchErrorNamesReindex() throws IOException {
    Path empty = Files.createDirectories(repo.resolve("other"));
    Target t = new Target(empty, empty.resolve(".prism-index"));
    McpTools none = new McpTools(warm, t, true, 200, McpJsonDefaults.getMapper());
    assertThat(structured(none.status()).get("state").asText()).isEqualTo("missing");
    CallToolResult r = none.search(args("query", "x"));
    assertThat(r.isError()).isTrue();
    assertThat(text(r)).startsWith("no index at ").contains("call the reindex tool");
    JsonNode built = structured(none.reindex(null));
    assertThat(built.get("committed").asBoolean()).isTrue();
    assertThat(structured(none.status()).get("state").asText()).isEqualTo("ready");
  }

  @Test
  void reindexReportsTheCountersAndTheNextSearchFindsTheNewText() throws IOException {
    cli.write("src/main/java/demo/Fresh.java", "package demo;\nclass Fresh { int quokka; }\n");
    Files.delete(repo.resolve("tools/strings.py"));
    JsonNode run = structured(tools.reindex(args()));
    assertThat(run.get("added").asInt()).isEqualTo(1);
    assertThat(run.get("deleted").asInt()).isEqualTo(1);
    assertThat(run.get("committed").asBoolean()).isTrue();
    JsonNode s = structured(tools.search(args("query", "quokka", "mode", "hybrid")));
    assertThat(s.get("hits").get(0).get("path").asText())
        .isEqualTo("src/main/java/demo/Fresh.java");
    assertThat(s.get("freshness").get("refreshedFiles").asInt()).isZero();

    JsonNode full = structured(tools.reindex(args("full", true)));
    assertThat(full.get("added").asInt()).isEqualTo(full.get("filesSeen").asInt());
  }

  /**
   * While a reindex runs (held inside the real run by its progress callback), a search answers
   * from the last commit and a second reindex is refused at once; neither waits for the first.
   */
  @Test
  void aRunningReindexBlocksNeitherSearchesNorTheServer() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Backend held = new Backend() {
      @Override
      public SearchAnswer search(SearchRequest request) throws CliFailure, IOException {
        return warm.search(request);
      }

      @Override
      public IndexSummary index(IndexRequest request, Progress progress)
          throws CliFailure, IOException {
        return warm.index(request, p -> {
          inside.countDown();
          try {
            release.await(2, TimeUnit.MINUTES);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      }

      @Override
      public StatusReport status(StatusRequest request) throws IOException {
        return warm.status(request);
      }
    };
    McpTools t = new McpTools(held, target, true, 200, McpJsonDefaults.getMapper());
    cli.write("src/main/java/demo/Fresh.java", "package demo;\nclass Fresh { int quokka; }\n");
    CompletableFuture<CallToolResult> run = CompletableFuture.supplyAsync(() ->
        t.reindex(args("full", true)));
    try {
      assertThat(inside.await(2, TimeUnit.MINUTES)).as("the run reached its first file").isTrue();
      JsonNode s = structured(t.search(args("query", "parse duration", "mode", "lexical")));
      assertThat(s.get("hits")).isNotEmpty();
      assertThat(s.get("freshness").get("skippedBecauseLocked").asBoolean()).isTrue();
      CallToolResult second = t.reindex(args());
      assertThat(second.isError()).isTrue();
      assertThat(text(second)).startsWith("a reindex is already running");
    } finally {
      release.countDown();
    }
    assertThat(structured(run.get(2, TimeUnit.MINUTES)).get("committed").asBoolean()).isTrue();
    assertThat(structured(t.search(args("query", "quokka", "mode", "lexical"))).get("hits"))
        .isNotEmpty();
  }
}
