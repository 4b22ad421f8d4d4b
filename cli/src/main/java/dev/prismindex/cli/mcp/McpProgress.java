package dev.prismindex.cli.mcp;

import dev.prismindex.cli.output.Progress;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An indexing run's {@link Progress} as MCP progress notifications for the {@code progressToken}
 * of the tool call: one when a phase begins, and at most one every {@value #INTERVAL_MS} ms within
 * a phase, with the counters as the message ({@code "embedding: 1200/3575 chunks"}). The progress
 * value counts the notifications, so it always increases as the specification requires. A failed
 * send (the client went away) stops the notifications, never the run.
 */
final class McpProgress implements Progress {

  /** The shortest time between two notifications within one phase. */
  static final long INTERVAL_MS = 500;

  private static final Logger LOG = LoggerFactory.getLogger(McpProgress.class);

  private final McpSyncServerExchange exchange;
  private final Object token;
  private String phase = "starting";
  private long filesDone;
  private long filesTotal;
  private long chunksDone;
  private long chunksTotal;
  private long sent;
  private long lastSentNanos;
  private boolean broken;

  private McpProgress(McpSyncServerExchange exchange, Object token) {
    this.exchange = exchange;
    this.token = token;
  }

  /** Notifications for the call's {@code progressToken}; none when the call has no token. */
  static Progress of(McpSyncServerExchange exchange, @Nullable Map<String, Object> meta) {
    Object token = meta == null ? null : meta.get("progressToken");
    return token instanceof String || token instanceof Number
        ? new McpProgress(exchange, token) : Progress.NONE;
  }

  @Override
  public synchronized void phase(String name) {
    if (!name.equals(phase)) {
      phase = name;
      send(true);
    }
  }

  @Override
  public synchronized void files(long done, long total) {
    filesDone = done;
    filesTotal = total;
    send(false);
  }

  @Override
  public synchronized void chunks(long done, long total) {
    chunksDone = done;
    chunksTotal = total;
    send(false);
  }

  /** The message of the next notification: the phase and its counters. */
  synchronized String message() {
    StringBuilder m = new StringBuilder(phase);
    if (phase.equals("embedding") && chunksTotal > 0) {
      m.append(": ").append(chunksDone).append('/').append(chunksTotal).append(" chunks");
    } else if (filesTotal > 0) {
      m.append(": ").append(filesDone).append('/').append(filesTotal).append(" files");
    }
    return m.toString();
  }

  private void send(boolean phaseBegins) {
    long now = System.nanoTime();
    if (broken || (!phaseBegins && sent > 0 && now - lastSentNanos < INTERVAL_MS * 1_000_000)) {
      return;
    }
    try {
      exchange.progressNotification(new ProgressNotification(token, (double) ++sent, null,
          message()));
      lastSentNanos = now;
    } catch (RuntimeException e) {
      broken = true;
      LOG.debug("progress notifications stopped: {}", e.toString());
    }
  }
}
