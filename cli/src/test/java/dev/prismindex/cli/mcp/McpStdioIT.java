package dev.prismindex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prismindex.cli.Launcher;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code scripts/prism-index mcp} process (the shaded jar) fed malformed lines: as raw
 * bytes on its stdin, each followed by a ping that must still be answered, then stdin closed (exit
 * 0); and with the SDK's own client, through a shell that puts bad lines ahead of the client's
 * messages on the server's stdin.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class McpStdioIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BAD_LINES = "\nnot json\n{\n[]\n{\"jsonrpc\":\"2.0\"}\n";

  @TempDir Path repo;
  Launcher built;
  Path launcher;
  Path jar;

  @BeforeEach
  void setUp() throws Exception {
    built = Launcher.ofThisBuild();
    launcher = built.script;
    jar = built.jar;
    Files.createDirectories(repo.resolve("src"));
    Files.writeString(repo.resolve("src/Hello.java"), "class Hello { void greet() {} }\n");
  }

  @Test
  void rawBadLinesAreAnsweredTheServerKeepsAnsweringAndEndsWithZeroWhenStdinCloses()
      throws Exception {
    ProcessBuilder pb = built.launcher(repo, "mcp", "--repo", repo.toString());
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    try (OutputStream in = p.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8))) {
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}\n");
      assertThat(JSON.readTree(out.readLine()).get("id").asInt()).isZero();
      send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
      byte[] notUtf8 = {'{', '"', (byte) 0xc3, (byte) 0x28, '"', ':', '1', '}', '\n'};
      // Skipped (no usable id: MCP forbids an answer with id null), or answered (an id).
      Object[][] cases = {
          {"\n", null}, {"not json\n", null}, {"{\n", null}, {"[]\n", null},
          {"{\"jsonrpc\":\"2.0\"}\n", null}, {notUtf8, null},
          {"{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"ping\",\"params\":{\"_meta\":"
              + "{\"pad\":\"" + "x".repeat(17 << 20) + "\"}}}\n", null},
          {"{\"jsonrpc\":\"1.0\",\"id\":\"old\",\"method\":\"ping\"}\n", -32600}};
      int id = 1;
      for (Object[] c : cases) {
        in.write(c[0] instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) c[0]);
        send(in, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}\n");
        JsonNode answer = JSON.readTree(out.readLine());
        if (c[1] != null) {
          assertThat(answer.get("id").asText()).as(answer.toString()).isEqualTo("old");
          assertThat(answer.get("error").get("code").asInt()).isEqualTo(c[1]);
          answer = JSON.readTree(out.readLine());
        }
        assertThat(answer.get("id").asInt()).as(answer.toString()).isEqualTo(id);
        assertThat(answer.has("result")).isTrue();
        id++;
      }
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":\"list\",\"method\":\"tools/list\"}\n");
      assertThat(JSON.readTree(out.readLine()).get("result").get("tools")).hasSize(3);
    }
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("exits when stdin closes").isTrue();
    assertThat(p.exitValue()).isZero();
  }

  /**
   * Issue 41's case on the real process: a ping before initialize, then initialize, initialized, a
   * search and the end of stdin, all at once: every request is answered before the exit.
   */
  @Test
  void everyRequestWrittenBeforeStdinEndsIsAnswered() throws Exception {
    ProcessBuilder pb = built.launcher(repo, "mcp", "--repo", repo.toString());
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    try (OutputStream in = p.getOutputStream()) {
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":\"ping\",\"method\":\"ping\"}\n"
          + "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}\n"
          + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
          + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"index_status\",\"arguments\":{}}}\n");
    }
    List<String> ids = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        ids.add(JSON.readTree(line).get("id").asText());
      }
    }
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).isZero();
    assertThat(ids).containsExactlyInAnyOrder("ping", "0", "1");
  }

  @Test
  void theSdkClientWorksWithBadLinesAheadOfItsMessages() throws Exception {
    // sh prints the bad lines, then copies the client's messages: the server reads both.
    String script = "{ printf '%s' \"$BAD\"; exec cat; } | exec \"$LAUNCHER\" mcp --repo \"$REPO\"";
    ServerParameters params = ServerParameters.builder("sh")
        .args("-c", script)
        .env(Map.of("PRISM_INDEX_JAR", jar.toString(), "BAD", BAD_LINES,
            "LAUNCHER", launcher.toString(), "REPO", repo.toString()))
        .build();
    StringBuffer stderr = new StringBuffer();
    StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> stderr.append(line).append('\n'));
    McpSyncClient client = McpClient.sync(transport)
        .initializationTimeout(Duration.ofMinutes(2))
        .requestTimeout(Duration.ofMinutes(2))
        .build();
    try {
      assertThat(client.initialize().serverInfo().name()).isEqualTo("prism-index");
      assertThat(client.listTools().tools()).extracting(Tool::name)
          .contains("repo_search", "index_status", "reindex");
      client.ping();
      CallToolResult status = client.callTool(
          io.modelcontextprotocol.spec.McpSchema.CallToolRequest.builder("index_status")
              .arguments(Map.of()).build());
      assertThat(status.isError()).isFalse();
    } finally {
      client.closeGracefully();
      transport.awaitForExit();
    }
    assertThat(stderr.toString()).contains("prism-index mcp: skipped a malformed line (-32700")
        .contains("prism-index mcp: skipped a malformed line (-32600")
        .doesNotContain("Exception");
  }

  private static void send(OutputStream in, String s) throws Exception {
    in.write(s.getBytes(StandardCharsets.UTF_8));
    in.flush();
  }
}
