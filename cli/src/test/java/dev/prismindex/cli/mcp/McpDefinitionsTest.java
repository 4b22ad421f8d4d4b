package dev.prismindex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness;
import dev.prismindex.cli.command.SearchRequests;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.serve.WarmBackend;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP tools as an agent sees them (issue 39, item 6): definitions within their byte budget,
 * limits the schema and the server agree on, no argument that does nothing, one naming style, and
 * paths and counts that give the totals of the answer.
 */
class McpDefinitionsTest {

  @TempDir Path repo;
  Harness cli;
  WarmBackend warm;
  McpTools tools;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    Path root = repo.toAbsolutePath().normalize();
    warm = new WarmBackend(cli.environment());
    tools = new McpTools(warm, new Target(root, root.resolve(".prism-index")), true,
        SearchRequests.DEFAULT_MAX_REFRESH_FILES, McpJsonDefaults.getMapper());
  }

  @AfterEach
  void tearDown() throws Exception {
    warm.close();
  }

  /** The bytes of {@code tools/list}'s result, as the SDK writes it. */
  static int listBytes(McpTools tools) throws Exception {
    ListToolsResult list = new ListToolsResult(List.of(tools.searchTool(), tools.statusTool(),
        tools.reindexTool()), null);
    return McpJsonDefaults.getMapper().writeValueAsString(list)
        .getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  void theDefinitionsFitTheirBudget() throws Exception {
    int bytes = listBytes(tools);
    assertThat(bytes).as("tools/list result: %d bytes (8,183 before issue 39)", bytes)
        .isLessThanOrEqualTo(McpTools.DEFINITIONS_BUDGET);
    McpTools lexical = new McpTools(warm, tools.target(), false, 200,
        McpJsonDefaults.getMapper());
    assertThat(listBytes(lexical)).isLessThanOrEqualTo(McpTools.DEFINITIONS_BUDGET);
  }

  @Test
  void theSchemaStillSaysWhatAnAgentNeeds() {
    JsonNode schema = Harness.JSON.valueToTree(tools.searchTool().inputSchema());
    assertThat(names(schema.get("properties"))).containsExactlyInAnyOrder("query", "mode",
        "path", "type", "glob", "maxMatches", "context", "caseSensitive", "outputMode");
    assertThat(schema.get("required").get(0).asText()).isEqualTo("query");
    assertThat(schema.get("properties").get("mode").get("enum").toString())
        .isEqualTo("[\"literal\",\"lexical\",\"semantic\",\"hybrid\"]");
    assertThat(tools.searchTool().description()).contains("hybrid", "(default)", "literal",
        "untrusted", "read the file before changing it");
    assertThat(tools.statusTool().description()).contains("outdated: call reindex");
    assertThat(tools.reindexTool().description()).contains("full", "repairs");
  }

  @Test
  void theSchemasLimitsAreTheServers() {
    JsonNode p = Harness.JSON.valueToTree(tools.searchTool().inputSchema()).get("properties");
    int max = p.get("maxMatches").get("maximum").asInt();
    assertThat(max).isEqualTo(10_000);
    assertThat(tools.search(args("query", "parse", "maxMatches", max)).isError()).isFalse();
    CallToolResult over = tools.search(args("query", "parse", "maxMatches", max + 1));
    assertThat(over.isError()).isTrue();
    assertThat(text(over)).isEqualTo("maxMatches must be a positive safe integer at most 10000");
    int context = p.get("context").get("maximum").asInt();
    assertThat(tools.search(args("query", "parse", "context", context)).isError()).isFalse();
    assertThat(tools.search(args("query", "parse", "context", context + 1)).isError()).isTrue();
    assertThat(p.get("maxMatches").get("minimum").asInt()).isEqualTo(1);
    assertThat(tools.search(args("query", "parse", "maxMatches", 0)).isError()).isTrue();
  }

  @Test
  void noArgumentDoesNothing() {
    CallToolResult hidden = tools.search(args("query", "parse", "includeHidden", true));
    assertThat(hidden.isError()).as("includeHidden did nothing: it is not offered").isTrue();
    assertThat(text(hidden)).startsWith("unknown argument 'includeHidden': expected");
    // Every argument of the schema changes the answer of some call.
    Map<String, Object[]> changes = Map.of(
        "mode", new Object[] {"literal", "lexical"},
        "path", new Object[] {"tools", "src"},
        "type", new Object[] {"python", "java"},
        "glob", new Object[] {"*.py", "*.java"},
        "maxMatches", new Object[] {1, 3},
        "context", new Object[] {0, 1},
        "outputMode", new Object[] {"content", "count"});
    for (Map.Entry<String, Object[]> e : changes.entrySet()) {
      // A query with hits in Java and Python files, several in one file.
      Map<String, Object> a = args("query", "duration snake", e.getKey(), e.getValue()[0]);
      Map<String, Object> b = args("query", "duration snake", e.getKey(), e.getValue()[1]);
      if (!e.getKey().equals("mode")) {
        a.put("mode", "lexical");
        b.put("mode", "lexical");
      }
      assertThat(text(tools.search(a))).as(e.getKey()).isNotEqualTo(text(tools.search(b)));
    }
    assertThat(text(tools.search(args("query", "PARSELONG", "mode", "literal",
        "caseSensitive", true)))).as("caseSensitive").isEqualTo("(no matches)");
    assertThat(text(tools.search(args("query", "PARSELONG", "mode", "literal"))))
        .isNotEqualTo("(no matches)");
  }

  @Test
  void everyFieldNameIsCamelCase() throws Exception {
    JsonNode s = Harness.JSON.valueToTree(tools.search(args("query", "parse duration"))
        .structuredContent());
    assertThat(s.get("untrustedIndex").asBoolean()).isTrue();
    List<String> bad = new ArrayList<>();
    collectNames(s, "", bad);
    collectNames(Harness.JSON.valueToTree(tools.searchTool().inputSchema()), "", bad);
    for (CallToolResult r : List.of(tools.status(), tools.reindex(Map.of()))) {
      collectNames(Harness.JSON.valueToTree(r.structuredContent()), "", bad);
    }
    assertThat(bad).as("field names with _ or -").isEmpty();
  }

  @Test
  void pathsAndCountsGiveTheTotalsOfTheAnswer() throws Exception {
    for (int i = 0; i < 12; i++) {
      cli.write("many/f" + i + ".txt", "needle\nneedle again\n");
    }
    assertThat(cli.run("index").exit()).isZero();
    CallToolResult files = tools.search(args("query", "needle", "mode", "literal",
        "outputMode", "files_with_matches"));
    List<String> paths = text(files).lines().toList();
    assertThat(paths).as("12 files of 24 hits: more than the default of 10 hits").hasSize(12)
        .doesNotHaveDuplicates().allMatch(p -> p.startsWith("many/f"));
    JsonNode fs = Harness.JSON.valueToTree(files.structuredContent());
    assertThat(fs.get("fileCount").asInt()).isEqualTo(12);
    assertThat(fs.get("hitCount").asInt()).isEqualTo(24);
    assertThat(fs.get("truncated").asBoolean()).isFalse();
    assertThat(fs.get("files").get(0).get("hits").asInt()).isEqualTo(2);
    assertThat(fs.has("hits")).isFalse();
    CallToolResult count = tools.search(args("query", "needle", "mode", "literal",
        "outputMode", "count"));
    assertThat(text(count)).isEqualTo("24 matches in 12 files");
    CallToolResult cut = tools.search(args("query", "needle", "mode", "literal",
        "outputMode", "files_with_matches", "maxMatches", 3));
    assertThat(text(cut)).isEqualTo("many/f0.txt\nmany/f1.txt\n[2 files from the first 3"
        + " hits; more hits exist: raise maxMatches (at most 10000) to see all]");
    CallToolResult cutCount = tools.search(args("query", "needle", "mode", "literal",
        "outputMode", "count", "maxMatches", 3));
    assertThat(text(cutCount)).isEqualTo("at least 3 matches in at least 2 files (counted the"
        + " first 3 hits; raise maxMatches, at most 10000, to count more)");
  }

  private static void collectNames(JsonNode node, String at, List<String> bad) {
    if (node == null) {
      return;
    }
    if (node.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> f = fields.next();
        boolean valueMap = at.endsWith("notSearched") || at.endsWith("skippedBy")
            || at.endsWith("engines") || at.endsWith("properties");
        if (!valueMap && (f.getKey().contains("_") || f.getKey().contains("-"))) {
          bad.add(at + "/" + f.getKey());
        }
        collectNames(f.getValue(), at + "/" + f.getKey(), bad);
      }
    } else if (node.isArray()) {
      node.forEach(n -> collectNames(n, at + "[]", bad));
    }
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static Map<String, Object> args(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static String text(CallToolResult r) {
    return ((TextContent) r.content().get(0)).text();
  }
}
