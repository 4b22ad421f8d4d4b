package dev.prismindex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness;
import dev.prismindex.cli.command.Requests.McpRequest;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.serve.WarmBackend;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session's lifecycle on stdio (issue 41, item 3): every request read is answered before the
 * server exits on EOF, also one whose answer is still being computed when stdin ends; a
 * {@code ping} is answered before {@code initialize} and before {@code initialized}; other
 * requests before {@code initialize} get an error, after it an answer.
 */
class McpLifecycleTest {

  private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":"
      + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
      + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
  }

  private static String call(String id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":"
        + "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}";
  }

  private static String request(String id, String method) {
    return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"" + method + "\"}";
  }

  @Test
  void everyRequestReadIsAnsweredBeforeTheServerExitsOnEof() throws Exception {
    List<JsonNode> answers = session(INITIALIZE, INITIALIZED,
        call("search", "repo_search", "{\"query\":\"parseDuration\",\"mode\":\"lexical\"}"),
        call("status", "index_status", "{}"),
        call("reindex", "reindex", "{}"),
        request("list", "tools/list"));
    assertThat(answers).extracting(a -> a.get("id").asText())
        .containsExactlyInAnyOrder("init", "search", "status", "reindex", "list");
    assertThat(answers).allSatisfy(a -> assertThat(a.has("result")).as(a.toString()).isTrue());
    JsonNode search = byId(answers, "search").get("result");
    assertThat(search.get("isError").asBoolean()).isFalse();
    assertThat(search.get("structuredContent").get("hits").get(0).get("path").asText())
        .isEqualTo("src/main/java/demo/Duration.java");
  }

  @Test
  void theIssuesSequenceInitializeInitializedCallEofAnswersBoth() throws Exception {
    List<JsonNode> answers = session(INITIALIZE, INITIALIZED,
        call("1", "repo_search", "{\"query\":\"parse duration\"}"));
    assertThat(answers).extracting(a -> a.get("id").asText()).containsExactly("init", "1");
  }

  @Test
  void aPingIsAnsweredBeforeInitializeAndBeforeInitialized() throws Exception {
    List<JsonNode> answers = session(request("p0", "ping"), INITIALIZE, request("p1", "ping"),
        INITIALIZED, request("p2", "ping"));
    assertThat(answers).extracting(a -> a.get("id").asText())
        .containsExactlyInAnyOrder("p0", "init", "p1", "p2");
    for (String ping : List.of("p0", "p1", "p2")) {
      assertThat(byId(answers, ping).get("result").isObject()).as(ping).isTrue();
      assertThat(byId(answers, ping).get("result").isEmpty()).as(ping).isTrue();
    }
  }

  @Test
  void aRequestBeforeInitializeIsAnErrorAndOneBeforeInitializedIsAnswered() throws Exception {
    List<JsonNode> answers = session(request("early", "tools/list"), INITIALIZE,
        request("list", "tools/list"),
        call("status", "index_status", "{}"));
    JsonNode early = byId(answers, "early");
    assertThat(early.get("error").get("code").asInt()).isEqualTo(-32600);
    assertThat(early.get("error").get("message").asText()).isEqualTo("Invalid Request: the"
        + " session is not initialized: send initialize first (tools/list before initialize)");
    assertThat(byId(answers, "list").get("result").get("tools")).hasSize(3);
    assertThat(byId(answers, "status").get("result").get("isError").asBoolean()).isFalse();
    List<JsonNode> later = session(INITIALIZE, request("list", "tools/list"), INITIALIZED,
        request("again", "tools/list"));
    assertThat(later).extracting(a -> a.get("id").asText())
        .containsExactlyInAnyOrder("init", "list", "again");
  }

  private static JsonNode byId(List<JsonNode> answers, String id) {
    return answers.stream().filter(a -> a.get("id").asText().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no answer to " + id + " in " + answers));
  }

  /**
   * Writes every line to a server in this JVM at once, closes its stdin, waits for it to exit and
   * returns every line it wrote, as JSON.
   */
  private List<JsonNode> session(String... lines) throws Exception {
    Path root = repo.toAbsolutePath().normalize();
    Pipe toServer = Pipe.open();
    Pipe fromServer = Pipe.open();
    BlockingQueue<String> out = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(
          Channels.newInputStream(fromServer.source()), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          out.add(line);
        }
      } catch (IOException e) {
        out.add("reader failed: " + e);
      }
    }, "mcp-lifecycle-answers");
    reader.setDaemon(true);
    reader.start();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    try (WarmBackend warm = new WarmBackend(cli.environment())) {
      OutputStream sink = Channels.newOutputStream(fromServer.sink());
      CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
        try {
          return McpCommand.serve(new McpRequest(new Target(root, root.resolve(".prism-index")),
              200), warm, cli.environment(), Channels.newInputStream(toServer.source()), sink,
              err);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      try (OutputStream client = Channels.newOutputStream(toServer.sink())) {
        client.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
      }
      assertThat(exit.get(2, TimeUnit.MINUTES)).isZero();
      sink.close();
    }
    reader.join(TimeUnit.MINUTES.toMillis(1));
    List<JsonNode> answers = new ArrayList<>();
    for (String line : out) {
      answers.add(Harness.JSON.readTree(line));
    }
    return answers;
  }
}
