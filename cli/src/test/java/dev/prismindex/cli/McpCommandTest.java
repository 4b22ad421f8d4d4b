package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Requests.McpRequest;
import dev.prismindex.cli.Requests.Target;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stdio server in process, over pipes: JSON-RPC lines in, only JSON-RPC lines out, the real
 * {@code System.out} kept away from the protocol while it serves, and a clean end (exit 0) when its
 * input ends. {@link McpServerIT} runs the real process with the SDK's client.
 */
class McpCommandTest {

  @TempDir Path repo;

  @Test
  void speaksOnlyJsonRpcOnItsOutputAndEndsWhenItsInputEnds() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    Path root = repo.toAbsolutePath().normalize();
    Pipe toServer = Pipe.open();
    Pipe fromServer = Pipe.open();
    OutputStream client = Channels.newOutputStream(toServer.sink());
    BufferedReader answers = new BufferedReader(new InputStreamReader(
        Channels.newInputStream(fromServer.source()), StandardCharsets.UTF_8));
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    PrintStream systemOut = System.out;
    CompletableFuture<Integer> exit;
    try (WarmBackend warm = new WarmBackend(cli.environment())) {
      exit = CompletableFuture.supplyAsync(() -> {
        try {
          return McpCommand.serve(new McpRequest(new Target(root, root.resolve(".prism-index")),
              200), warm, cli.environment(), Channels.newInputStream(toServer.source()),
              Channels.newOutputStream(fromServer.sink()), err);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      send(client, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
      JsonNode init = Harness.JSON.readTree(answers.readLine());
      assertThat(init.get("id").asInt()).isEqualTo(1);
      assertThat(init.get("result").get("serverInfo").get("name").asText())
          .isEqualTo("prism-index");
      // While it serves, whatever writes to System.out lands on stderr, not in the protocol.
      assertThat(System.out).isSameAs(err);

      send(client, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      send(client, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"repo_search\",\"arguments\":{\"query\":\"parseDuration\","
          + "\"mode\":\"lexical\"}}}");
      JsonNode search = Harness.JSON.readTree(answers.readLine());
      assertThat(search.get("id").asInt()).isEqualTo(2);
      assertThat(search.get("result").get("isError").asBoolean()).isFalse();
      assertThat(search.get("result").get("structuredContent").get("hits").get(0).get("path")
          .asText()).isEqualTo("src/main/java/demo/Duration.java");

      client.close();
      assertThat(exit.get(2, TimeUnit.MINUTES)).isZero();
    }
    assertThat(System.out).isSameAs(systemOut);
    assertThat(errBytes.toString(StandardCharsets.UTF_8)).startsWith("prism-index mcp: serving "
        + root);
  }

  private static void send(OutputStream out, String line) throws Exception {
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
