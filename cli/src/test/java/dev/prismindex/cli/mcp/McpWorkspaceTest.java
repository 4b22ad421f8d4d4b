package dev.prismindex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.SearchRequests;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.command.WorkspaceFile;
import dev.prismindex.cli.serve.WarmBackend;
import dev.prismindex.cli.serve.WarmBackendTest;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP tools over a workspace: {@code repo_search} answers the hits of {@code search --json}
 * (each naming its repository, the text {@code repo/path:line}), takes {@code repos} (names and
 * globs) only when it serves a workspace, and {@code index_status} and {@code reindex} cover every
 * repository.
 */
class McpWorkspaceTest {

  @TempDir Path dir;
  Harness cli;
  WarmBackend warm;
  McpTools tools;

  @BeforeEach
  void setUp() throws Exception {
    for (String name : List.of("alpha", "beta")) {
      Path f = dir.resolve(name).resolve("src/" + name + ".py");
      Files.createDirectories(f.getParent());
      Files.writeString(f, "def quokka_" + name + "(x):\n    \"\"\"Counts the quokkas of " + name
          + ".\"\"\"\n    return x + 1\n", StandardCharsets.UTF_8);
    }
    Files.writeString(dir.resolve(WorkspaceFile.NAME),
        "[[repo]]\npath = \"alpha\"\n[[repo]]\npath = \"beta\"\n");
    cli = new Harness(dir);
    warm = new WarmBackend(cli.environment());
    Target target = WorkspaceFile.read(dir.resolve(WorkspaceFile.NAME));
    tools = new McpTools(warm, target, true, SearchRequests.DEFAULT_MAX_REFRESH_FILES,
        McpJsonDefaults.getMapper());
    JsonNode reindexed = structured(tools.reindex(Map.of()));
    assertThat(reindexed.get("repos").get("alpha").get("files").asInt()).isEqualTo(1);
    assertThat(reindexed.get("repos").get("beta").get("files").asInt()).isEqualTo(1);
  }

  @AfterEach
  void tearDown() throws Exception {
    warm.close();
  }

  private static JsonNode structured(CallToolResult r) {
    assertThat(r.isError()).as(((TextContent) r.content().get(0)).text()).isFalse();
    return Harness.JSON.valueToTree(r.structuredContent());
  }

  private static Map<String, Object> args(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  void searchAnswersTheCliHitsOfEveryRepository() {
    Result r = cli.run("search", "count quokkas", "--json", "--mode", "lexical");
    assertThat(r.exit()).as(r.toString()).isZero();
    List<JsonNode> expected = WarmBackendTest.withoutFreshness(r);
    assertThat(expected).extracting(h -> h.get("repo").asText())
        .containsExactlyInAnyOrder("alpha", "beta");
    CallToolResult result = tools.search(args("query", "count quokkas", "mode", "lexical"));
    JsonNode s = structured(result);
    assertThat(Harness.JSON.convertValue(s.get("hits"), List.class))
        .isEqualTo(Harness.JSON.convertValue(expected, List.class));
    assertThat(s.get("repos").fieldNames()).toIterable().containsExactly("alpha", "beta");
    List<String> lines = ((TextContent) result.content().get(0)).text().lines().toList();
    assertThat(lines.get(0)).startsWith(expected.get(0).get("repo").asText() + "/src/");

    JsonNode one = structured(tools.search(args("query", "count quokkas", "mode", "lexical",
        "repos", "b*")));
    assertThat(one.get("hits")).extracting(h -> h.get("repo").asText()).containsExactly("beta");
    CallToolResult unknown = tools.search(args("query", "x", "repos", List.of("gamma")));
    assertThat(unknown.isError()).isTrue();
    assertThat(((TextContent) unknown.content().get(0)).text())
        .contains("repos: no repository 'gamma' in the workspace (it has alpha, beta)");
  }

  @Test
  void onlyAWorkspaceOffersTheRepoArgument() throws Exception {
    String workspace = tools.searchTool().inputSchema().toString();
    assertThat(workspace).contains("repos: alpha, beta; globs, !x");
    Path single = dir.resolve("alpha");
    McpTools one = new McpTools(warm, new Target(single, single.resolve(".prism-index")), true,
        SearchRequests.DEFAULT_MAX_REFRESH_FILES, McpJsonDefaults.getMapper());
    String schema = one.searchTool().inputSchema().toString();
    assertThat(schema).doesNotContain("\"repos\"");
    // The workspace's addition to the definitions is small.
    assertThat(workspace.length() - schema.length()).isLessThan(200);
    CallToolResult refused = one.search(args("query", "x", "repos", "alpha"));
    assertThat(refused.isError()).isTrue();
  }

  @Test
  void statusCoversEveryRepository() {
    JsonNode s = structured(tools.status());
    assertThat(s.get("state").asText()).isEqualTo("ready");
    assertThat(s.get("repos")).extracting(r -> r.get("name").asText())
        .containsExactly("alpha", "beta");
  }
}
