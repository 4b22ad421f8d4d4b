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
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
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
        } catch (IOException e) {
          throw new UncheckedIOException(e);
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

  /** The server in this JVM on pipes, its answers collected by a reader thread. */
  private static final class Session implements AutoCloseable {
    final OutputStream client;
    final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    final CompletableFuture<Integer> exit;
    final WarmBackend warm;
    final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    Session(Harness cli, Path root) throws Exception {
      Pipe toServer = Pipe.open();
      Pipe fromServer = Pipe.open();
      client = Channels.newOutputStream(toServer.sink());
      warm = new WarmBackend(cli.environment());
      PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
      exit = CompletableFuture.supplyAsync(() -> {
        try {
          return McpCommand.serve(new McpRequest(new Target(root, root.resolve(".prism-index")),
              200), warm, cli.environment(), Channels.newInputStream(toServer.source()),
              Channels.newOutputStream(fromServer.sink()), err);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
            Channels.newInputStream(fromServer.source()), StandardCharsets.UTF_8))) {
          for (String line = r.readLine(); line != null; line = r.readLine()) {
            answers.add(line);
          }
        } catch (IOException e) {
          answers.add("reader failed: " + e);
        }
      }, "mcp-test-answers");
      reader.setDaemon(true);
      reader.start();
      send("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
      assertThat(next().get("id").asText()).isEqualTo("init");
      send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    void send(String line) throws Exception {
      sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    void sendBytes(byte[] bytes) throws Exception {
      client.write(bytes);
      client.flush();
    }

    /** The next line the server wrote, as JSON (fails rather than hang when none comes). */
    JsonNode next() throws Exception {
      String line = answers.poll(2, TimeUnit.MINUTES);
      assertThat(line).as("an answer from the server; its stderr:\n%s",
          errBytes.toString(StandardCharsets.UTF_8)).isNotNull();
      return Harness.JSON.readTree(line);
    }

    /** Pings and returns the answers that came before the ping's (those to earlier lines). */
    List<JsonNode> answersThenPing(String id) throws Exception {
      send("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"ping\"}");
      List<JsonNode> before = new ArrayList<>();
      while (true) {
        JsonNode answer = next();
        if (answer.get("id").asText().equals(id) && answer.has("result")) {
          return before;
        }
        before.add(answer);
      }
    }

    @Override
    public void close() throws Exception {
      client.close();
      try {
        assertThat(exit.get(2, TimeUnit.MINUTES)).isZero();
      } finally {
        warm.close();
      }
    }
  }

  /**
   * One bad line and what it gets: an error answer with {@code code} and {@code id} whose message
   * starts with {@code text}; or, without a code, a line on stderr containing {@code text} (none
   * when null).
   */
  record Bad(String name, byte[] line, @Nullable Integer code, @Nullable Object id,
      @Nullable String text) {
    static Bad of(String line, @Nullable Integer code, @Nullable Object id,
        @Nullable String text) {
      return new Bad(line, (line + "\n").getBytes(StandardCharsets.UTF_8), code, id, text);
    }

    static Bad skipped(String line, @Nullable String note) {
      return of(line, null, null, note);
    }
  }

  private static final String MALFORMED = "prism-index mcp: skipped a malformed line (";

  static List<Bad> badLines() {
    byte[] notUtf8 = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"x\":\"?\"}}\n"
        .getBytes(StandardCharsets.UTF_8);
    notUtf8[notUtf8.length - 5] = (byte) 0xff;
    return List.of(
        Bad.skipped("", null),
        Bad.skipped(" \t\r", null),
        // Without a usable id: JSON-RPC's answer would have id null, which MCP forbids.
        Bad.skipped("not json", MALFORMED + "-32700 Parse error: not JSON (Unrecognized token"
            + " 'not'"),
        Bad.skipped("{", MALFORMED + "-32700 Parse error: not JSON (Unexpected end-of-input"),
        Bad.skipped("{} {}", MALFORMED + "-32700 Parse error: not JSON (more than one JSON value"
            + " on the line))"),
        Bad.skipped("[".repeat(5000), MALFORMED + "-32700 Parse error: not JSON (Document"
            + " nesting depth"),
        new Bad("invalid UTF-8", notUtf8, null, null,
            MALFORMED + "-32700 Parse error: the line is not valid UTF-8)"),
        Bad.skipped("[]", MALFORMED + "-32600 Invalid Request: an empty array)"),
        Bad.skipped("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", MALFORMED
            + "-32600 Invalid Request: batches are not supported; send one message per line)"),
        Bad.skipped("42", MALFORMED
            + "-32600 Invalid Request: expected a JSON-RPC object, not a number)"),
        Bad.skipped("\"ping\"", MALFORMED
            + "-32600 Invalid Request: expected a JSON-RPC object, not a string)"),
        Bad.skipped("{\"jsonrpc\":\"2.0\"}", MALFORMED + "-32600 Invalid Request: no \"method\""
            + " (a request or notification) and no \"result\" or \"error\" (a response))"),
        Bad.skipped("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", MALFORMED
            + "-32600 Invalid Request: \"id\" must be a string or an integer, not an object)"),
        Bad.skipped("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", MALFORMED
            + "-32600 Invalid Request: \"id\" must be a string or an integer, not null)"),
        // What the input carries into the note is made harmless (an escape sequence, U+202E).
        Bad.skipped("x\u001b[31m\u202e", MALFORMED + "-32700 Parse error: not JSON ("),
        // With a usable id: answered.
        Bad.of("{\"jsonrpc\":\"2.0\",\"id\":6}", -32600, 6, "Invalid Request: no \"method\""),
        Bad.of("{\"id\":7,\"method\":\"ping\"}", -32600, 7,
            "Invalid Request: \"jsonrpc\" must be \"2.0\""),
        Bad.of("{\"jsonrpc\":\"1.0\",\"id\":\"eight\",\"method\":\"ping\"}", -32600, "eight",
            "Invalid Request: \"jsonrpc\" must be \"2.0\""),
        Bad.of("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":7}", -32600, 9,
            "Invalid Request: \"method\" must be a string, not a number"),
        Bad.of("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\",\"params\":[]}",
            -32602, 10, "Invalid params: \"params\" of tools/list must be an object, not an array"),
        // JSON-RPC answers neither a notification nor a response.
        Bad.skipped("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":5}",
            "prism-index mcp: skipped a bad notification (Invalid params: \"params\" of"
                + " notifications/initialized must be an object, not a number)"),
        Bad.skipped("{\"jsonrpc\":\"2.0\",\"result\":{}}",
            "prism-index mcp: skipped a bad response (Invalid Request: a response without an"
                + " \"id\")"),
        Bad.skipped("{\"jsonrpc\":\"2.0\",\"id\":[1],\"error\":{\"code\":1,\"message\":\"x\"}}",
            "prism-index mcp: skipped a bad response (Invalid Request: \"id\" must be a string or"
                + " an integer, not an array)"));
  }

  @Test
  void everyBadLineIsAnsweredOrSkippedAndTheServerKeepsAnswering() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    try (Session s = new Session(cli, repo.toAbsolutePath().normalize())) {
      int i = 0;
      for (Bad bad : badLines()) {
        int errBefore = s.errBytes.size();
        s.sendBytes(bad.line());
        List<JsonNode> answers = s.answersThenPing("ping-" + i++);
        String note = s.errBytes.toString(StandardCharsets.UTF_8).substring(errBefore);
        if (bad.code() == null) {
          assertThat(answers).as(bad.name()).isEmpty();
          if (bad.text() == null) {
            assertThat(note).as(bad.name()).isEmpty();
          } else {
            assertThat(note).as(bad.name()).startsWith(bad.text()).endsWith("\n")
                .hasLineCount(1);
          }
          continue;
        }
        assertThat(note).as(bad.name()).isEmpty();
        assertThat(answers).as(bad.name()).hasSize(1);
        JsonNode answer = answers.get(0);
        assertThat(answer.get("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(answer.get("error").get("code").asInt()).as(bad.name()).isEqualTo(bad.code());
        assertThat(answer.get("error").get("message").asText()).as(bad.name())
            .startsWith(bad.text());
        assertThat(Harness.JSON.convertValue(answer.get("id"), Object.class)).as(bad.name())
            .isEqualTo(bad.id());
      }
      assertThat(s.errBytes.toString(StandardCharsets.UTF_8)).doesNotContain("\u001b", "\u202e");
      // Line ends: CRLF, and a carriage return between tokens, are whitespace.
      s.send("{\"jsonrpc\":\"2.0\",\"id\":\"crlf\",\"method\":\"ping\"}\r");
      assertThat(s.next().get("id").asText()).isEqualTo("crlf");
      s.send("{\"jsonrpc\":\"2.0\",\r\"id\":\"cr\",\"method\":\"tools/list\"}");
      JsonNode list = s.next();
      assertThat(list.get("id").asText()).isEqualTo("cr");
      assertThat(list.get("result").get("tools")).hasSize(3);
    }
  }

  @Test
  void aMessageOverTheLimitIsRefusedUnreadAndTheServerKeepsAnswering() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    try (Session s = new Session(cli, repo.toAbsolutePath().normalize())) {
      String head = "{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"ping\",\"params\":"
          + "{\"_meta\":{\"pad\":\"";
      String tail = "\"}}}";
      int pad = McpStdio.MAX_MESSAGE_BYTES - head.length() - tail.length();
      // The largest message read is answered; one byte more is not read.
      s.send(head + "x".repeat(pad) + tail);
      assertThat(s.next().get("id").asText()).isEqualTo("big");
      s.send(head + "x".repeat(pad + 1) + tail);
      assertThat(s.answersThenPing("after-big")).isEmpty();
      assertThat(s.errBytes.toString(StandardCharsets.UTF_8)).endsWith("prism-index mcp:"
          + " skipped a malformed line (-32600 message too large: "
          + (McpStdio.MAX_MESSAGE_BYTES + 1) + " bytes, more than the limit of "
          + McpStdio.MAX_MESSAGE_BYTES + " bytes; it was not read)\n");
      // Well over the SDK's own limit of 16 MiB.
      s.send(head + "x".repeat(17 << 20) + tail);
      assertThat(s.answersThenPing("after-huge")).isEmpty();
      assertThat(s.errBytes.toString(StandardCharsets.UTF_8))
          .endsWith("message too large: " + (head.length() + (17 << 20) + tail.length())
              + " bytes, more than the limit of " + McpStdio.MAX_MESSAGE_BYTES + " bytes; it was"
              + " not read)\n");
    }
  }

  @Test
  void toolArgumentsThatAreNotAnObjectAreInvalidParamsInPlainWords() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    try (Session s = new Session(cli, repo.toAbsolutePath().normalize())) {
      Map<String, String> expected = Map.of(
          "\"parseDuration\"", "Invalid params: \"arguments\" must be an object, not a string",
          "[\"parseDuration\"]", "Invalid params: \"arguments\" must be an object, not an array",
          "7", "Invalid params: \"arguments\" must be an object, not a number",
          "true", "Invalid params: \"arguments\" must be an object, not a boolean");
      for (Map.Entry<String, String> e : expected.entrySet()) {
        s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"repo_search\",\"arguments\":" + e.getKey() + "}}");
        JsonNode error = s.next().get("error");
        assertThat(error.get("code").asInt()).as(e.getKey()).isEqualTo(-32602);
        assertThat(error.get("message").asText()).as(e.getKey()).isEqualTo(e.getValue());
      }
      s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
          + "{\"arguments\":{\"query\":\"x\"}}}");
      JsonNode noName = s.next().get("error");
      assertThat(noName.get("code").asInt()).isEqualTo(-32602);
      assertThat(noName.get("message").asText()).startsWith("Unknown tool"); // the SDK's answer
      s.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":{},\"arguments\":{}}}");
      assertThat(s.next().get("error").get("message").asText())
          .isEqualTo("Invalid params: \"name\" must be a string, not an object");
      // A well-formed call still works.
      s.send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":"
          + "{\"name\":\"repo_search\",\"arguments\":{\"query\":\"parseDuration\","
          + "\"mode\":\"lexical\"}}}");
      JsonNode result = s.next().get("result");
      assertThat(result.get("isError").asBoolean()).isFalse();
    }
  }

  @Test
  void theServerEndsWithExitZeroWhenItsInputEndsEvenMidLineOrAfterBadLines() throws Exception {
    Harness cli = Harness.indexedSmallRepository(repo);
    Session s = new Session(cli, repo.toAbsolutePath().normalize());
    s.send("not json");
    s.send("{");
    assertThat(s.answersThenPing("p")).isEmpty();
    s.sendBytes("{\"jsonrpc\":\"2.0\",\"id\":1,".getBytes(StandardCharsets.UTF_8));
    s.close(); // exit 0 asserted
  }
}
