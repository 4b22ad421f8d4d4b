package dev.prismindex.cli.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's output (stdout), passing every byte through at once while it keeps count of the
 * requests passed on to the SDK that are still unanswered: {@link McpStdio} says which it passed
 * on ({@link #expect}), and each response line written (by the SDK, or by {@code McpStdio} itself)
 * settles its id. When the input ends, {@link #awaitAll} lets the server answer every request it
 * has read before it stops (the SDK's transport would drop answers still being computed).
 * Writers lock this object around each whole line, as the SDK's transport does.
 */
final class McpAnswers extends OutputStream {

  private static final Logger LOG = LoggerFactory.getLogger(McpAnswers.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final OutputStream out;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  /** Requests passed on and not answered yet: id (as {@link #key}) to how many carry it. */
  private final Map<String, Integer> pending = new HashMap<>();

  McpAnswers(OutputStream out) {
    this.out = out;
  }

  /** A request with this id was passed on to the SDK: its answer is awaited. */
  synchronized void expect(JsonNode id) {
    pending.merge(key(id), 1, Integer::sum);
  }

  /** Waits until every request passed on has been answered. */
  synchronized void awaitAll() throws InterruptedException {
    while (!pending.isEmpty()) {
      LOG.debug("the input ended; waiting for the answers to {}", pending.keySet());
      wait();
    }
  }

  /** How many requests passed on are unanswered (tests). */
  synchronized int unanswered() {
    return pending.values().stream().mapToInt(Integer::intValue).sum();
  }

  @Override
  public synchronized void write(int b) throws IOException {
    try {
      out.write(b);
    } finally {
      collect(new byte[] {(byte) b}, 0, 1);
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } finally {
      collect(b, off, len);
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    out.flush();
  }

  /**
   * Keeps the bytes of the line being written; at its end, settles the request it answers. Runs
   * also when writing failed (the client is gone): the answer was given as far as it can be.
   */
  private void collect(byte[] b, int off, int len) {
    int start = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        line.write(b, start, i - start);
        settle(line.toByteArray());
        line.reset();
        start = i + 1;
      }
    }
    line.write(b, start, off + len - start);
  }

  private void settle(byte[] bytes) {
    JsonNode message;
    try {
      message = JSON.readTree(bytes);
    } catch (IOException e) {
      return;
    }
    JsonNode id = message == null ? null : message.get("id");
    if (id == null || message.has("method") || !(message.has("result") || message.has("error"))) {
      return; // a notification or a request of the server's own, not an answer
    }
    String key = key(id);
    Integer n = pending.get(key);
    if (n != null) {
      if (n == 1) {
        pending.remove(key);
      } else {
        pending.put(key, n - 1);
      }
      notifyAll();
    }
  }

  /** An id as a key: a string and a number that print alike stay apart. */
  private static String key(JsonNode id) {
    return (id.isTextual() ? "s:" : "n:") + id.asText();
  }
}
