package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.Requests;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What a {@link ResidentServer} does while no request comes: stop when due, give memory back. */
final class QuietTime {

  private static final Logger LOG = LoggerFactory.getLogger(ResidentServer.class);

  /** How long without a request before the server collects its garbage and shrinks its heap. */
  static final Duration TRIM_AFTER = Duration.ofSeconds(3);

  /** How long without a request before the server frees the embedding model. */
  static final Duration MODEL_IDLE = Duration.ofSeconds(60);

  /** The quiet period (its start) after which the heap was last trimmed; -1 for none. */
  private volatile long trimmedAfter = -1;

  /** The quiet period (its start) after which the model was last released; -1 for none. */
  private volatile long modelReleasedAfter = -1;

  private final Duration idle;
  private final Path portFile;
  private final WarmBackend warm;
  private final Consumer<String> stop;
  /** The heap's free ratios: the JVM's defaults while answering, the started ones when quiet. */
  private final HeapRatios heap = HeapRatios.ofJvm();
  private final AtomicInteger active = new AtomicInteger();
  private volatile long lastActivityNanos = System.nanoTime();

  /**
   * The quiet time of a server.
   *
   * @param idle how long without a request before the server stops; zero for never
   * @param stop stops the server, with the reason
   */
  QuietTime(Duration idle, Path portFile, WarmBackend warm, Consumer<String> stop) {
    this.idle = idle;
    this.portFile = portFile;
    this.warm = warm;
    this.stop = stop;
  }

  /** A request is being answered. */
  void requestBegins() {
    active.incrementAndGet();
    lastActivityNanos = System.nanoTime();
  }

  /** A request was answered (or refused). */
  void requestEnds() {
    lastActivityNanos = System.nanoTime();
    active.decrementAndGet();
  }

  /**
   * Looks, every period of the server's ticker, whether it is to stop (its port file removed, idle
   * for {@code idle}) or, when no request runs, to give memory back.
   */
  void tick() {
    long quiet = System.nanoTime() - lastActivityNanos;
    if (!Files.exists(portFile, LinkOption.NOFOLLOW_LINKS)) {
      stop.accept("the port file " + portFile + " was removed");
    } else if (!idle.isZero() && active.get() == 0 && quiet >= idle.toNanos()) {
      stop.accept("idle for " + Requests.formatDuration(idle));
    } else if (active.get() == 0) {
      trim(quiet);
    }
  }

  /**
   * Gives memory back while no request comes: after {@link #TRIM_AFTER} without one, a full
   * collection (the background server's heap then shrinks to what is live, {@link ServerStarter},
   * {@link HeapRatios});
   * after {@link #MODEL_IDLE}, the embedding model is freed too (the next semantic or hybrid query
   * loads it again, about a second). Each happens once per quiet period.
   */
  private void trim(long quietNanos) {
    long seen = lastActivityNanos;
    if (quietNanos >= MODEL_IDLE.toNanos() && modelReleasedAfter != seen) {
      modelReleasedAfter = seen;
      if (warm.releaseModel()) {
        LOG.debug("released the embedding model after {} without a request",
            Requests.formatDuration(MODEL_IDLE));
        trimmedAfter = -1; // collect once more: the model's heap is garbage now
      }
    }
    if (quietNanos >= TRIM_AFTER.toNanos() && trimmedAfter != seen) {
      trimmedAfter = seen;
      heap.quiet(System::gc);
    }
  }
}
