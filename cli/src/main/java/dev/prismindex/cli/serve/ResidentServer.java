package dev.prismindex.cli.serve;

import dev.prismindex.cli.command.Backend;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Requests;
import dev.prismindex.cli.command.Requests.ServeRequest;
import dev.prismindex.cli.command.SearchRequest;
import dev.prismindex.cli.command.Target;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.tool.SafeText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code prism-index serve}: one process per index that answers the {@code search} and
 * {@code status} command lines of clients ({@link ServeClient}, the launcher's bash client) on a
 * loopback TCP port ({@link ServeProtocol}), running the same CLI pipeline ({@code Cli}) on a
 * {@link WarmBackend}, so the answer is what the command would have printed in its own process.
 *
 * <p>The port and a random token (256 bits, new for every server) are in
 * {@code <home>/serve/serve.port}, mode 0600 in a directory of mode 0700: only the owner can read
 * the token, and a connection without it is refused: each connection must send it within
 * a second of its accept, read off the workers by {@link ConnectionGate}, so strangers on the
 * machine cannot stall the server. A lock on {@code <home>/serve/serve.lock},
 * held for the server's life and released by the kernel when it dies however it dies, makes it the
 * only server of that index; a port file found while holding the lock is a dead server's and is
 * replaced. The server stops after {@code idle} without a request, when its port file
 * disappears, when a client of other code (another jar, or its own jar rebuilt) asks, on
 * {@code serve --stop}, or on SIGTERM/SIGINT, and removes its port file.
 */
public final class ResidentServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ResidentServer.class);

  /**
   * Threads answering the connections that proved the token; more wait in their queue. Strangers
   * never reach them: {@link ConnectionGate} reads every connection's proof on its own thread.
   */
  private static final int WORKERS = 8;

  private final Target target;
  private final Environment env;
  private final Duration idle;
  private final PrintStream log;
  private final ServerClaim claim;
  private final ConnectionGate gate;
  private final String codeStamp;
  private final Instant started = Instant.now();
  private final WarmBackend warm;
  private final ServeConnection connections;
  private final ThreadPoolExecutor workers;
  private final ScheduledExecutorService ticker;
  private final QuietTime quiet;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Object stopLock = new Object();
  private volatile boolean stopping;
  private volatile String stopReason = "stopped";

  private ResidentServer(Target target, Environment env, Duration idle, PrintStream log,
      ServerClaim claim, CommandRunner runner) throws IOException {
    this.target = target;
    this.env = env;
    this.idle = idle;
    this.log = log;
    this.claim = claim;
    this.codeStamp = ServeProtocol.stamp(ServeProtocol.code());
    this.warm = WarmBackend.watching(env, "serve", idle);
    this.connections = new ServeConnection(this, target, env, warm, runner);
    this.workers = new ThreadPoolExecutor(WORKERS, WORKERS, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(), daemon("prism-index-serve"));
    this.ticker = Executors.newSingleThreadScheduledExecutor(daemon("prism-index-serve-idle"));
    this.gate = new ConnectionGate(claim.channel, claim.token, this::answer);
    this.quiet = new QuietTime(idle, claim.portFile, warm, this::stop);
  }

  /**
   * Runs one command line of a client, as the one-shot process would, with the client's streams and
   * environment, on this server's backend: the CLI's own pipeline, handed in by its caller so that
   * this package does not depend on it.
   */
  @FunctionalInterface
  public interface CommandRunner {
    /** Runs {@code args} and returns the exit code. */
    int run(String[] args, PrintStream out, PrintStream err, Environment env, Backend backend);

    /**
     * Prepares what the next {@link #run} needs (the CLI: its command-line model), called once an
     * answer has been sent, so that the next client does not wait for it.
     */
    default void prepare() {
    }
  }

  /**
   * Runs {@code prism-index serve} until the server stops; returns the exit code.
   *
   * @param runner runs each command line a client sends
   */
  public static int serve(ServeRequest request, Environment env, PrintStream err,
      CommandRunner runner) throws CliFailure, IOException {
    if (request.stop()) {
      err.println(SafeText.escapeField(ServeClient.stop(request.target(), env)));
      err.flush();
      return ExitCode.OK;
    }
    ResidentServer server;
    try {
      server = start(request.target(), env, request.idleTimeout(), err, runner,
          request.background() ? LOCK_WAIT : Duration.ZERO);
    } catch (CliFailure e) {
      if (request.background() && e.exitCode() == ExitCode.FAILURE && e.getMessage() != null
          && e.getMessage().startsWith(ServerClaim.ALREADY_RUNNING)) {
        err.println(SafeText.escapeField("prism-index serve: " + e.getMessage()
            + "; this one is not needed"));
        return ExitCode.OK;
      }
      throw e;
    }
    Thread hook = new Thread(() -> server.stop("terminated"), "prism-index-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      server.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.stop("interrupted");
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs
      }
    }
    return ExitCode.OK;
  }

  /** How long a server started in the background waits for the lock of one that is stopping. */
  static final Duration LOCK_WAIT = Duration.ofSeconds(10);

  /**
   * Takes the server lock of the target's index, listens on a loopback port, writes the port file
   * and starts answering.
   *
   * @param idle how long without a connection before the server stops; zero for never
   * @param runner runs each command line a client sends
   * @param lockWait how long to wait for the lock when another server holds it (one that is
   *     stopping); zero to fail at once
   * @throws CliFailure exit code 1 when a server already runs for this index, or its directory
   *     cannot be made safely, or its files cannot be written (a read-only index directory, a full
   *     disk: said with the directory and what to do)
   * @throws IOException when the port cannot be opened or the port file written
   */
  static ResidentServer start(Target target, Environment env, Duration idle, PrintStream log,
      CommandRunner runner, Duration lockWait) throws CliFailure, IOException {
    ServerClaim claim = ServerClaim.take(target, log, lockWait);
    try {
      ResidentServer server = new ResidentServer(target, env, idle, log, claim, runner);
      server.begin();
      ServerRegistry.register(env, target, claim.port, server.started);
      return server;
    } catch (IOException | RuntimeException e) {
      claim.abandon();
      throw e;
    }
  }

  private void begin() {
    Thread acceptor = daemon("prism-index-serve-accept").newThread(() -> {
      gate.run();
      if (!stopping) { // it failed: a server that accepts nothing must not look alive
        stop("accepting connections failed");
      }
    });
    acceptor.start();
    long period = idle.isZero() ? 1000 : Math.max(10, Math.min(1000, idle.toMillis() / 4));
    ticker.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
    log.println(SafeText.escapeField("prism-index serve: answering for " + target.root()
        + " on 127.0.0.1:" + claim.port + ", pid " + ProcessHandle.current().pid()
        + " (idle timeout " + (idle.isZero() ? "none" : Requests.formatDuration(idle))
        + ")"));
    log.flush();
    Thread warmUp = daemon("prism-index-serve-warm-up").newThread(this::warmUp);
    warmUp.start();
  }

  /**
   * Opens the index ahead of time (through a lexical and a literal search), without loading the
   * embedding model: that loads when the first semantic or hybrid query needs it, so a server whose
   * clients search lexically or literally never holds it.
   */
  private void warmUp() {
    for (SearchMode mode : List.of(SearchMode.LEXICAL, SearchMode.LITERAL)) {
      try {
        warm.search(new SearchRequest(target, true, "prism-index warm-up", mode, 1, false,
            false, 0));
      } catch (Exception | LinkageError e) {
        // No index yet, no model, or the server stopping meanwhile: the first request pays.
        LOG.debug("warm-up ({}) skipped: {}", mode.wireName(), e.toString());
        return;
      }
    }
  }

  private void tick() {
    if (!stopping) {
      quiet.tick();
    }
  }

  /** Answers a connection that proved the token ({@link ConnectionGate}) on a worker. */
  private void answer(SocketChannel ch) {
    quiet.requestBegins();
    try {
      workers.execute(new Answer(ch));
    } catch (RejectedExecutionException e) {
      new Answer(ch).refuse("the server is stopping");
    }
  }

  /** One proven connection, queued for a worker; refused unanswered when the server stops. */
  private final class Answer implements Runnable {
    private final SocketChannel channel;

    Answer(SocketChannel channel) {
      this.channel = channel;
    }

    @Override
    public void run() {
      try (SocketChannel c = channel) {
        connections.answer(c.socket());
      } catch (IOException | RuntimeException e) {
        LOG.debug("a connection ended early: {}", e.toString());
      } finally {
        done();
      }
    }

    /** Says why without reading the request (its hello was sent) and closes. */
    void refuse(String why) {
      try (SocketChannel c = channel) {
        ServeConnection.refuse(c.socket().getOutputStream(), why);
      } catch (IOException | RuntimeException e) {
        LOG.debug("a connection ended early: {}", e.toString());
      } finally {
        done();
      }
    }

    private void done() {
      quiet.requestEnds();
    }
  }

  /** Waits until the server has stopped. */
  void await() throws InterruptedException {
    stopped.await();
  }

  /** Whether the server has stopped (its port file removed, its index closed, its lock released). */
  boolean isStopped() {
    return stopped.getCount() == 0;
  }

  Path portFile() {
    return claim.portFile;
  }

  /** Whether the server is stopping (new commands are refused). */
  boolean isStopping() {
    return stopping;
  }

  /**
   * Why this server must not answer a client whose code is {@code clientCode}, or null: other code,
   * or this server's own jar rebuilt since it started.
   */
  @Nullable String staleFor(String clientCode) {
    Path own = ServeProtocol.code();
    if (!same(own, Path.of(clientCode))) {
      return "this server runs " + own + ", the client " + clientCode;
    }
    String now = ServeProtocol.stamp(own);
    return now.equals(codeStamp) ? null : "this server's code " + own + " changed since it started";
  }

  private static boolean same(Path a, Path b) {
    if (a.equals(b)) {
      return true;
    }
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }

  /** Stops on another thread (from a worker, which {@link #stop} waits for). */
  void stopSoon(String reason) {
    Thread t = daemon("prism-index-serve-stop").newThread(() -> stop(reason));
    t.start();
  }

  /** When this server started (status). */
  Instant started() {
    return started;
  }

  /**
   * Stops: no new connections, the port file removed, the answers in flight finished, the index
   * closed, the lock released. Idempotent.
   */
  void stop(String reason) {
    synchronized (stopLock) {
      if (stopping) {
        return;
      }
      stopping = true;
      stopReason = reason;
    }
    gate.close();
    claim.closePort();
    ServerRegistry.unregister(env, claim.port);
    ticker.shutdown(); // not shutdownNow: stop() may run on the ticker's thread
    workers.shutdown();
    // The requests no worker has taken yet are refused now, not after the running ones (their
    // clients run the command in-process at once); the running ones are finished.
    List<Runnable> queued = new ArrayList<>();
    workers.getQueue().drainTo(queued);
    for (Runnable r : queued) {
      ((Answer) r).refuse("the server is stopping");
    }
    try {
      if (!workers.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("answers still running after five minutes; closing the index anyway");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      warm.close();
    } catch (IOException | RuntimeException | LinkageError e) {
      // A LinkageError: this server's jar was rewritten (a rebuild in a checkout writes it in
      // place) and closing needed a class not loaded yet, as logging would: the line goes through
      // the server's own stream. The server stops all the same; its process ends, which releases
      // the index's locks, and the index holds what it last committed.
      log.println(SafeText.escapeField("prism-index serve: closing the index failed: " + e));
    } finally {
      released();
    }
  }

  /** The end of {@link #stop}: the server lock released, the last line printed, waiters woken. */
  private void released() {
    claim.release();
    try {
      log.println(SafeText.escapeField("prism-index serve: stopped (" + stopReason + ")"));
      log.flush();
    } finally {
      stopped.countDown();
    }
  }

  @Override
  public void close() {
    stop("stopped");
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
