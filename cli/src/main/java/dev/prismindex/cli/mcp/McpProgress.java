package dev.prismindex.cli.mcp;

import dev.prismindex.cli.output.Progress;
import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexProgress.Phase;
import dev.prismindex.internal.Throttle;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.Locale;
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
  /** The phase of the latest snapshot, null before the first. */
  private @Nullable Phase phase;
  private final Throttle throttle = new Throttle(INTERVAL_MS * 1_000_000);
  private long sent;
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
  public synchronized void onProgress(IndexProgress p) {
    boolean phaseBegins = p.phase() != phase;
    phase = p.phase();
    send(p, phaseBegins);
  }

  /** The message of a notification: the snapshot's phase and its counters. */
  static String message(IndexProgress p) {
    StringBuilder m = new StringBuilder(p.phase().name().toLowerCase(Locale.ROOT));
    if (p.phase() == Phase.EMBEDDING && p.chunksToEmbed() > 0) {
      m.append(": ").append(p.chunksEmbedded()).append('/').append(p.chunksToEmbed())
          .append(" chunks");
    } else if (p.filesTotal() > 0) {
      m.append(": ").append(p.filesDone()).append('/').append(p.filesTotal()).append(" files");
    }
    return m.toString();
  }

  private void send(IndexProgress p, boolean phaseBegins) {
    if (broken || !throttle.pass(System.nanoTime(), phaseBegins)) {
      return;
    }
    try {
      exchange.progressNotification(new ProgressNotification(token, (double) ++sent, null,
          message(p)));
    } catch (RuntimeException e) {
      broken = true;
      LOG.debug("progress notifications stopped: {}", e.toString());
    }
  }
}
