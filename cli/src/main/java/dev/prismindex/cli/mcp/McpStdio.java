package dev.prismindex.cli.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.tool.SafeText;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The line reader in front of the MCP SDK's stdio transport: reads the client's newline-delimited
 * JSON-RPC messages, passes on only well-formed ones (to the SDK's transport, which handles the
 * protocol) and answers or skips the rest itself, so that no line can stop the server. What each
 * bad line gets:
 *
 * <ul>
 *   <li>a request with a usable id (a string or an integer) but a wrong {@code jsonrpc} or
 *       {@code method}: {@code -32600} (invalid request) with that id; one whose {@code params}
 *       is not an object: {@code -32602} (invalid params);
 *   <li>every other bad line is skipped with a line on the server's stderr ({@code prism-index
 *       mcp: skipped a malformed line (-32700 Parse error: not JSON (...))}): a blank line (a
 *       debug log line only),
 *       more than {@link #MAX_MESSAGE_BYTES} (read past without being held in memory), not UTF-8,
 *       not JSON, an array or a scalar, an object without a usable id, a bad notification or
 *       response. JSON-RPC 2.0 would answer the invalid ones with {@code -32700} or
 *       {@code -32600} and id null, but MCP requires an id on every response, and the SDK's own
 *       client stops reading for good at a response without one.
 * </ul>
 *
 * Around the SDK it also keeps the session's lifecycle ({@link #lifecycle}): a {@code ping} is
 * answered at any time, also before {@code initialize}; other requests before {@code initialize}
 * get {@code -32600}; after it they are answered even before the client's
 * {@code notifications/initialized}.
 *
 * <p>The answers are written to the server's output under its lock, as the SDK writes its own, so
 * lines never interleave. {@link #run} returns when the input has ended and every request read
 * has been answered.
 */
final class McpStdio {

  /** The largest message read, in bytes (the newline excluded). */
  static final int MAX_MESSAGE_BYTES = 4 << 20;

  private static final Logger LOG = LoggerFactory.getLogger(McpStdio.class);

  /** The notification that ends the client's part of initialization. */
  static final String INITIALIZED = "notifications/initialized";

  private static final byte[] INITIALIZED_LINE = ("{\"jsonrpc\":\"2.0\",\"method\":\""
      + INITIALIZED + "\"}\n").getBytes(StandardCharsets.UTF_8);

  private final InputStream in;
  private final McpAnswers answers;
  private final PrintStream err;
  private final OutputStream toSdk;
  private final McpJsonMapper sdkMapper;
  private final int maxBytes;
  private final ObjectMapper json = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  /** Whether an {@code initialize} request has been passed on. */
  private boolean initializeSeen;
  /** Whether the SDK has been given {@code notifications/initialized}. */
  private boolean initializedSent;

  /**
   * @param in the client's messages (stdin)
   * @param answers the server's output (stdout), shared with the SDK's transport: answers are
   *     written while holding its lock; it tells when every request passed on has been answered
   * @param err the server's stderr: a line for each bad line skipped
   * @param toSdk where well-formed lines go, one a line: the SDK transport's input
   * @param sdkMapper the SDK's mapper, to check that the SDK reads each line passed on
   * @param maxBytes the largest message read ({@link #MAX_MESSAGE_BYTES} but in tests)
   */
  McpStdio(InputStream in, McpAnswers answers, PrintStream err, OutputStream toSdk,
      McpJsonMapper sdkMapper, int maxBytes) {
    this.in = in;
    this.answers = answers;
    this.err = err;
    this.toSdk = toSdk;
    this.sdkMapper = sdkMapper;
    this.maxBytes = maxBytes;
  }

  /**
   * Reads lines until the input ends (or reading it or writing an answer fails: the client is
   * gone), waits until every request passed on has been answered, then closes {@code toSdk} so
   * that the SDK's transport ends too.
   */
  void run() {
    try (toSdk) {
      try {
        BoundedLines lines = new BoundedLines(in, maxBytes);
        while (lines.next()) {
          try {
            line(lines);
          } catch (RuntimeException e) {
            LOG.warn("a line of the MCP input could not be checked", e);
            note("skipped a line that could not be checked (" + e + ")");
          }
        }
      } catch (IOException e) {
        LOG.debug("the MCP input ended with an error: {}", e.toString());
      }
      answers.awaitAll();
    } catch (IOException e) {
      LOG.debug("closing the SDK's input failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void line(BoundedLines lines) throws IOException {
    if (lines.size > maxBytes) {
      answer(null, ErrorCodes.INVALID_REQUEST, "message too large: " + lines.size
          + " bytes, more than the limit of " + maxBytes + " bytes; it was not read");
      return;
    }
    byte[] bytes = lines.line;
    int n = lines.length;
    if (n > 0 && bytes[n - 1] == '\r') {
      n--;
    }
    if (blank(bytes, n)) {
      LOG.debug("skipped a blank line on the MCP input");
      return;
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, n)).toString();
    } catch (CharacterCodingException e) {
      answer(null, ErrorCodes.PARSE_ERROR, "Parse error: the line is not valid UTF-8");
      return;
    }
    JsonNode message;
    try {
      message = json.readTree(text);
    } catch (JsonProcessingException e) {
      answer(null, ErrorCodes.PARSE_ERROR, "Parse error: not JSON (" + reason(e) + ")");
      return;
    }
    if (problem(message) != null) {
      return;
    }
    try {
      McpSchema.deserializeJsonRpcMessage(sdkMapper, text);
    } catch (IOException | RuntimeException e) {
      LOG.debug("the SDK cannot read a message", e);
      reject(message, ErrorCodes.INVALID_REQUEST, "Invalid Request: not a JSON-RPC message this"
          + " server can read");
      return;
    }
    if (!lifecycle(message)) {
      return;
    }
    // A raw carriage return can only be whitespace between tokens here (inside a JSON string it is
    // escaped), but the SDK would take it for the end of the line.
    for (int i = 0; i < n; i++) {
      if (bytes[i] == '\r') {
        bytes[i] = ' ';
      }
    }
    JsonNode id = message.get("id");
    if (message.has("method") && id != null) {
      answers.expect(id);
    }
    toSdk.write(bytes, 0, n);
    toSdk.write('\n');
    toSdk.flush();
  }

  /**
   * The session's lifecycle around the SDK, which holds every request but {@code initialize}
   * until the client's {@code notifications/initialized} (and, the input ended, would never answer
   * it). Before {@code initialize}: a {@code ping} is answered (the specification requires an
   * answer to a ping at any time), any other request is an error ({@code -32600}, send initialize
   * first). After {@code initialize}, before {@code initialized}: a {@code ping} is answered here,
   * and before any other request the SDK is told {@code initialized} (once): the specification
   * lets a server answer requests once it has answered {@code initialize}, and a client that waits
   * for such an answer before sending {@code initialized} would otherwise wait for ever.
   *
   * @return whether to pass the message on to the SDK
   */
  private boolean lifecycle(JsonNode message) throws IOException {
    String method = text(message.get("method"));
    if (method == null) {
      return true; // a response
    }
    JsonNode id = message.get("id");
    if (id == null) {
      if (method.equals(INITIALIZED)) {
        if (initializedSent) {
          return false; // told already, before a request that came first
        }
        initializedSent = true;
      }
      return true;
    }
    if (method.equals("initialize")) {
      initializeSeen = true;
      return true;
    }
    if (method.equals("ping") && !initializedSent) {
      result(id);
      return false;
    }
    if (!initializeSeen) {
      answer(id, ErrorCodes.INVALID_REQUEST, "Invalid Request: the session is not initialized:"
          + " send initialize first (" + method + " before initialize)");
      return false;
    }
    if (!initializedSent) {
      LOG.debug("{} came before notifications/initialized: the SDK is told initialized first",
          method);
      toSdk.write(INITIALIZED_LINE);
      initializedSent = true;
    }
    return true;
  }

  /** Answers a request with an empty result (a {@code ping}'s answer). */
  private void result(JsonNode id) throws IOException {
    ObjectNode response = json.createObjectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id);
    response.putObject("result");
    write(response);
  }

  /**
   * Checks the message's JSON-RPC shape; answers or logs what is wrong.
   *
   * @return null when it is a well-formed message, else what is wrong (already answered or logged)
   */
  private @Nullable String problem(JsonNode message) throws IOException {
    if (message.isArray()) {
      return answer(null, ErrorCodes.INVALID_REQUEST, message.isEmpty()
          ? "Invalid Request: an empty array"
          : "Invalid Request: batches are not supported; send one message per line");
    }
    if (!message.isObject()) {
      return answer(null, ErrorCodes.INVALID_REQUEST, "Invalid Request: expected a JSON-RPC"
          + " object, not " + type(message));
    }
    JsonNode method = message.get("method");
    boolean response = method == null && (message.has("result") || message.has("error"));
    if (!"2.0".equals(text(message.get("jsonrpc")))) {
      return reject(message, ErrorCodes.INVALID_REQUEST,
          "Invalid Request: \"jsonrpc\" must be \"2.0\"");
    }
    JsonNode id = message.get("id");
    if (id != null && !usableId(id)) {
      return reject(message, ErrorCodes.INVALID_REQUEST, "Invalid Request: \"id\" must be a"
          + " string or an integer, not " + type(id));
    }
    if (response) {
      if (id == null) {
        return reject(message, ErrorCodes.INVALID_REQUEST, "Invalid Request: a response without"
            + " an \"id\"");
      }
      return null;
    }
    if (method == null) {
      return reject(message, ErrorCodes.INVALID_REQUEST, "Invalid Request: no \"method\" (a"
          + " request or notification) and no \"result\" or \"error\" (a response)");
    }
    if (!method.isTextual()) {
      return reject(message, ErrorCodes.INVALID_REQUEST, "Invalid Request: \"method\" must be a"
          + " string, not " + type(method));
    }
    JsonNode params = message.get("params");
    if (params != null && !params.isNull() && !params.isObject()) {
      return reject(message, ErrorCodes.INVALID_PARAMS, "Invalid params: \"params\" of "
          + method.asText() + " must be an object, not " + type(params));
    }
    return null;
  }

  /**
   * Answers a bad request with its id when usable ({@link #answer}); only notes a bad response,
   * and a notification with bad params (JSON-RPC answers neither).
   */
  private String reject(JsonNode message, int code, String text) throws IOException {
    JsonNode id = message.get("id");
    boolean hasMethod = message.has("method");
    boolean response = !hasMethod && (message.has("result") || message.has("error"));
    boolean notification = hasMethod && id == null;
    if (response || notification && code != ErrorCodes.INVALID_REQUEST) {
      note("skipped a bad " + (response ? "response" : "notification") + " (" + text + ")");
      return text;
    }
    return answer(id != null && usableId(id) ? id : null, code, text);
  }

  /**
   * Writes one error response to the server's output, and logs it; without an id, only logs it:
   * JSON-RPC would answer with id null, but MCP requires an id on every response and the SDK's own
   * client stops reading at one without.
   */
  private String answer(@Nullable JsonNode id, int code, String message) throws IOException {
    if (id == null) {
      note("skipped a malformed line (" + code + " " + message + ")");
      return message;
    }
    LOG.debug("answered a bad MCP message with {}: {}", code, message);
    ObjectNode response = json.createObjectNode();
    response.put("jsonrpc", "2.0");
    response.set("id", id);
    ObjectNode error = response.putObject("error");
    error.put("code", code);
    error.put("message", message);
    write(response);
    return message;
  }

  /** Writes one line to the server's output, under its lock (the SDK writes under it too). */
  private void write(ObjectNode response) throws IOException {
    byte[] bytes = json.writeValueAsBytes(response);
    synchronized (answers) {
      answers.write(bytes);
      answers.write('\n');
      answers.flush();
    }
  }

  /** Jackson's reason in short, without its source location. */
  static String reason(JsonProcessingException e) {
    String m = String.valueOf(e.getOriginalMessage());
    if (m.startsWith("Trailing token")) {
      return "more than one JSON value on the line";
    }
    for (String end : new String[] {" (start marker at", "\n"}) {
      int cut = m.indexOf(end);
      if (cut > 0) {
        m = m.substring(0, cut);
      }
    }
    return m.length() > 200 ? m.substring(0, 200) + "..." : m;
  }

  /** One line on the server's stderr, escaped by the one human-output sanitiser ({@link SafeText}). */
  private void note(String text) {
    err.println("prism-index mcp: " + SafeText.escapeField(text));
    err.flush();
  }

  private static boolean usableId(JsonNode id) {
    return id.isTextual() || id.isIntegralNumber();
  }

  private static @Nullable String text(@Nullable JsonNode node) {
    return node != null && node.isTextual() ? node.asText() : null;
  }

  private static String type(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static boolean blank(byte[] bytes, int n) {
    for (int i = 0; i < n; i++) {
      byte b = bytes[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}
