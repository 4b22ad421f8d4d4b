package dev.prismindex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.cli.Launcher;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end with a real MCP client: the official Java SDK's client ({@code McpClient.sync} over
 * {@code StdioClientTransport}) launches {@code scripts/prism-index mcp} (the shaded jar, with the
 * default static code model) on a temporary git repository, as an agent host would. The tests share one
 * server and run in order: initialize, list tools, status of the missing index, reindex (with
 * progress notifications), a search in every mode (the same hits as the one-shot CLI), bad
 * arguments, an unknown tool, an edit then reindex then search, and the server's exit when the
 * client closes. The client validates every structured result against the tool's output schema.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class McpServerIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path repo;
  static Launcher built;
  static Path launcher;
  static McpSyncClient client;
  static StdioClientTransport transport;
  static final StringBuffer stderr = new StringBuffer();
  static final List<ProgressNotification> progress = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    built = Launcher.ofThisBuild();
    launcher = built.script;
    Path jar = built.jar;
    write("src/main/java/demo/Duration.java", """
        package demo;

        /** Parses human-readable durations. */
        public final class Duration {
          /** Parses text such as 5s, 2m or 150ms into milliseconds. */
          public static long parseDuration(String text) {
            if (text.endsWith("ms")) {
              return Long.parseLong(text.substring(0, text.length() - 2));
            }
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }
        }
        """);
    write("src/main/java/demo/Freshness.java", """
        package demo;

        /** Decides whether the search index is stale compared with the working tree. */
        final class Freshness {
          boolean isStale(long indexedAt, long modifiedAt) {
            return modifiedAt > indexedAt;
          }
        }
        """);
    write("scripts/greet.py", """
        def greet(name):
            \"\"\"Say hello to someone by name.\"\"\"
            return "hello " + name
        """);
    Launcher.commitAll(repo);

    ServerParameters params = ServerParameters.builder(launcher.toString())
        .args("mcp", "--repo", repo.toString())
        .env(Map.of("PRISM_INDEX_JAR", jar.toAbsolutePath().toString()))
        .build();
    transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> stderr.append(line).append('\n'));
    client = McpClient.sync(transport)
        // Keeps each tool's output schema from tools/list and validates every structured result.
        .enableCallToolSchemaCaching(true)
        .progressConsumer(progress::add)
        .initializationTimeout(Duration.ofMinutes(2))
        .requestTimeout(Duration.ofMinutes(2))
        .build();
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.close();
    }
  }

  private static void write(String rel, String content) throws Exception {
    Launcher.write(repo, rel, content);
  }

  private static CallToolResult call(String tool, Map<String, Object> args) {
    return client.callTool(new CallToolRequest(tool, args));
  }

  private static String text(CallToolResult r) {
    return ((TextContent) r.content().get(0)).text();
  }

  private static JsonNode ok(CallToolResult r) {
    assertThat(r.isError()).as("%s\n--- server stderr\n%s", text(r), stderr).isFalse();
    return JSON.valueToTree(r.structuredContent());
  }

  /**
   * The one-shot CLI's NDJSON hits for the same search, through the same launcher, without their
   * {@code freshness} and {@code v} (the tool's object carries them once, not per hit).
   */
  private static List<JsonNode> cliSearch(String query, String mode) throws Exception {
    Launcher.Run r = built.launch(repo, "search", query, "--json", "--mode", mode, "--repo",
        repo.toString());
    assertThat(r.exit()).as(r.out()).isZero();
    List<JsonNode> hits = new ArrayList<>();
    for (JsonNode hit : r.json()) {
      ((ObjectNode) hit).remove(List.of("freshness", "v")); // the tool's object: schemaVersion
      hits.add(hit);
    }
    return hits;
  }

  /**
   * The same hits, field for field and score for score (every JVM of prism-index computes the same
   * floats: see {@code Main.sameArithmeticOnEveryJvm}).
   */
  private static void assertSameHits(String mode, JsonNode hits, List<JsonNode> expected) {
    assertThat(hits).as(mode).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertThat(names(hits.get(i))).as(mode + " hit " + i).isEqualTo(names(expected.get(i)));
    }
    assertThat(JSON.convertValue(hits, List.class)).as(mode)
        .isEqualTo(JSON.convertValue(expected, List.class));
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  @Order(1)
  void initializeNamesTheServerAndItsTools() {
    InitializeResult init = client.initialize();
    assertThat(init.serverInfo().name()).isEqualTo("prism-index");
    assertThat(init.capabilities().tools()).isNotNull();
    assertThat(init.instructions()).contains("repo_search");
  }

  @Test
  @Order(2)
  void listToolsOffersEveryModeWithTheBundledModel() {
    List<Tool> tools = client.listTools().tools();
    assertThat(tools).extracting(Tool::name)
        .containsExactlyInAnyOrder("repo_search", "index_status", "reindex");
    Tool search = tools.stream().filter(t -> t.name().equals("repo_search")).findFirst()
        .orElseThrow();
    @SuppressWarnings("unchecked")
    Map<String, Object> mode = (Map<String, Object>) ((Map<String, Object>) search.inputSchema()
        .get("properties")).get("mode");
    // The contract's mode order.
    assertThat(mode.get("enum")).isEqualTo(List.of("literal", "lexical", "semantic", "hybrid"));
    assertThat(search.description()).contains("untrusted");
  }

  @Test
  @Order(3)
  void statusOfTheMissingIndexIsAResultAndASearchAToolError() {
    assertThat(ok(call("index_status", Map.of())).get("state").asText()).isEqualTo("missing");
    CallToolResult r = call("repo_search", Map.of("query", "duration"));
    assertThat(r.isError()).isTrue();
    assertThat(text(r)).startsWith("no index at ").contains("reindex tool");
  }

  @Test
  @Order(4)
  void reindexBuildsTheIndexWithEmbeddingsAndReportsProgress() throws Exception {
    JsonNode run = ok(client.callTool(new CallToolRequest("reindex", Map.of(),
        Map.of("progressToken", "build-1"))));
    assertThat(run.get("added").asInt()).isEqualTo(3);
    assertThat(run.get("committed").asBoolean()).isTrue();
    assertThat(run.get("chunksEmbedded").asLong()).isPositive();
    JsonNode status = ok(call("index_status", Map.of()));
    assertThat(status.get("state").asText()).isEqualTo("ready");
    assertThat(status.get("semanticCoverage").asDouble()).isEqualTo(1.0);
    // The jar's default model is the static code model, whose tier covers every chunk at once.
    JsonNode tier = status.get("tiers").get(0);
    assertThat(tier.get("model").asText()).isEqualTo("prism-code-v1-t1");
    assertThat(tier.get("kind").asText()).isEqualTo("static");
    assertThat(tier.get("chunksCovered").asLong()).isEqualTo(status.get("chunks").asLong());
    assertThat(tier.get("state").asText()).isEqualTo("ready");
    // Notifications precede the answer on the pipe, but the client hands each one to the consumer
    // on a thread of its own, so they may arrive late and in any order: wait until the values
    // received are 1..n (the server numbers them as it sends them), which fails when one is lost or
    // sent twice.
    for (int i = 0; i < 600 && !numberedOneToN(progress); i++) {
      Thread.sleep(100);
    }
    assertThat(progress).isNotEmpty().allSatisfy(p -> {
      assertThat(p.progressToken()).isEqualTo("build-1");
      assertThat(p.message()).isNotBlank();
    });
    assertThat(progress).extracting(ProgressNotification::progress).doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1,
            progress.size()).mapToObj(n -> (double) n).toList());
  }

  @Test
  @Order(5)
  void searchInEveryModeAnswersTheHitsOfTheOneShotCli() throws Exception {
    Map<String, String> queries = Map.of(
        "lexical", "parse duration",
        "semantic", "is the index out of date",
        "hybrid", "parse duration",
        "literal", "parseLong");
    Map<String, String> firstPath = Map.of(
        "lexical", "src/main/java/demo/Duration.java",
        "semantic", "src/main/java/demo/Freshness.java",
        "hybrid", "src/main/java/demo/Duration.java",
        "literal", "src/main/java/demo/Duration.java");
    for (String mode : List.of("lexical", "semantic", "hybrid", "literal")) {
      CallToolResult r = call("repo_search", Map.of("query", queries.get(mode), "mode", mode));
      JsonNode s = ok(r);
      assertThat(s.get("mode").asText()).isEqualTo(mode);
      assertThat(s.get("untrustedIndex").asBoolean()).isTrue();
      JsonNode hits = s.get("hits");
      assertThat(hits).as(mode).isNotEmpty();
      assertThat(hits.get(0).get("path").asText()).as(mode).isEqualTo(firstPath.get(mode));
      assertThat(text(r).lines().findFirst().orElseThrow())
          .startsWith(firstPath.get(mode) + ":" + hits.get(0).get("line").asInt() + ":0:")
          .contains(" [score ");
      assertSameHits(mode, hits, cliSearch(queries.get(mode), mode));
    }
    JsonNode scoped = ok(call("repo_search", Map.of("query", "hello name", "path", "scripts",
        "maxMatches", 1)));
    assertThat(scoped.get("mode").asText()).isEqualTo("hybrid");
    assertThat(scoped.get("hits")).hasSize(1);
    assertThat(scoped.get("hits").get(0).get("path").asText()).isEqualTo("scripts/greet.py");
  }

  @Test
  @Order(6)
  void badArgumentsAreToolErrorsAndTheServerCarriesOn() {
    CallToolResult noQuery = call("repo_search", Map.of("mode", "lexical"));
    assertThat(noQuery.isError()).isTrue();
    assertThat(text(noQuery)).isEqualTo("query is required and must be a non-empty string.");
    CallToolResult badMode = call("repo_search", Map.of("query", "x", "mode", "regex"));
    assertThat(badMode.isError()).isTrue();
    assertThat(text(badMode)).startsWith("repo_search no longer supports mode \"regex\"");
    CallToolResult badLimit = call("repo_search", Map.of("query", "x", "maxMatches", 100000));
    assertThat(badLimit.isError()).isTrue();
    assertThat(text(badLimit)).isEqualTo(
        "maxMatches must be a positive safe integer at most 10000");
    // One limit for every surface: what repo_search's definition allows, the engine serves.
    CallToolResult large = call("repo_search", Map.of("query", "x", "maxMatches", 5000));
    assertThat(large.isError()).as(text(large)).isFalse();
    CallToolResult wrongType = call("repo_search", Map.of("query", "x", "context", "no"));
    assertThat(wrongType.isError()).isTrue();

    // An unknown tool is a protocol error (JSON-RPC -32602), as the MCP specification has it.
    assertThatThrownBy(() -> call("repo_grep", Map.of("query", "x")))
        .isInstanceOf(McpError.class).hasMessageContaining("Unknown tool");
    assertThat(ok(call("repo_search", Map.of("query", "parseDuration", "mode", "lexical")))
        .get("hits")).isNotEmpty();
  }

  @Test
  @Order(7)
  void afterAnEditReindexThenSearchFindsTheNewText() throws Exception {
    write("src/main/java/demo/Wombat.java", """
        package demo;

        /** Counts the burrows of a wombat colony. */
        final class Wombat {
          int burrowCount;
        }
        """);
    // The server watches the tree: it may index the new file itself before the calls below.
    assertThat(ok(call("index_status", Map.of())).get("state").asText()).isIn("behind", "ready");
    JsonNode run = ok(call("reindex", Map.of()));
    assertThat(run.get("added").asInt()).as("indexed by this run, or by the watch before it")
        .isBetween(0, 1);
    assertThat(run.get("added").asInt() + run.get("unchanged").asInt()).isEqualTo(4);
    for (String mode : List.of("lexical", "hybrid", "literal")) {
      JsonNode s = ok(call("repo_search", Map.of("query", "burrowCount", "mode", mode)));
      assertThat(s.get("hits").get(0).get("path").asText()).as(mode)
          .isEqualTo("src/main/java/demo/Wombat.java");
      assertThat(s.get("freshness").get("refreshedFiles").asInt()).isZero();
    }
  }

  @Test
  @Order(8)
  void theServerEndsWhenTheClientCloses() {
    assertThat(stderr.toString()).contains("prism-index mcp: serving ");
    client.closeGracefully();
    transport.awaitForExit();
    client = null;
    assertThat(Objects.requireNonNull(stderr.toString())).doesNotContain("Exception");
  }

  /** Whether the progress values received are exactly 1..n, in any order. */
  private static boolean numberedOneToN(List<ProgressNotification> received) {
    return !received.isEmpty() && received.stream().map(ProgressNotification::progress)
        .sorted().toList().equals(LongStream.rangeClosed(1, received.size())
            .mapToObj(n -> (double) n).toList());
  }
}
