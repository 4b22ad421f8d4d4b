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
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code prism-index serve}: one process per index that answers the {@code search} and
 * {@code status} command lines of {@link ServeClient}s on a Unix domain socket, running the same
 * CLI pipeline ({@code Cli}) on a {@link WarmBackend}, so the answer is what the command would have
 * printed in its own process.
 *
 * <p>The socket is {@code <home>/serve/serve.sock}, in a directory of mode 0700 (the socket itself
 * 0600). A lock on {@code <home>/serve/serve.lock}, held for the server's life and released by the
 * kernel when it dies however it dies, makes it the only server of that index; a socket file
 * found while holding the lock is a dead server's and is replaced. The server stops after
 * {@code idle} without a connection, when its socket file disappears, or on SIGTERM/SIGINT, and
 * removes its socket.
 */
public final class ResidentServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ResidentServer.class);

  /** Threads answering connections; more clients wait in the socket's backlog. */
  private static final int WORKERS = 8;

  private final Target target;
  private final Environment env;
  private final Duration idle;
  private final PrintStream log;
  private final Path socket;
  private final FileChannel lockFile;
  private final FileLock lock;
  private final ServerSocketChannel channel;
  private final WarmBackend warm;
  private final ServeConnection connections;
  private final ExecutorService workers;
  private final ScheduledExecutorService ticker;
  private final AtomicInteger active = new AtomicInteger();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Object stopLock = new Object();
  private volatile long lastActivityNanos = System.nanoTime();
  private volatile boolean stopping;
  private volatile String stopReason = "stopped";

  private ResidentServer(Target target, Environment env, Duration idle, PrintStream log,
      Path socket, FileChannel lockFile, FileLock lock, ServerSocketChannel channel,
      CommandRunner runner) {
    this.target = target;
    this.env = env;
    this.idle = idle;
    this.log = log;
    this.socket = socket;
    this.lockFile = lockFile;
    this.lock = lock;
    this.channel = channel;
    this.warm = new WarmBackend(env);
    this.connections = new ServeConnection(target, env, warm, runner, () -> stopping);
    this.workers = Executors.newFixedThreadPool(WORKERS, daemon("prism-index-serve"));
    this.ticker = Executors.newSingleThreadScheduledExecutor(daemon("prism-index-serve-idle"));
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
  }

  /**
   * Runs {@code prism-index serve} until the server stops; returns the exit code.
   *
   * @param runner runs each command line a client sends
   */
  public static int serve(ServeRequest request, Environment env, PrintStream err,
      CommandRunner runner) throws CliFailure, IOException {
    ResidentServer server = start(request.target(), env, request.idleTimeout(), err, runner);
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

  /**
   * Takes the server lock of the target's index, binds the socket and starts answering.
   *
   * @param idle how long without a connection before the server stops; zero for never
   * @param runner runs each command line a client sends
   * @throws CliFailure exit code 1 when a server already runs for this index, or the socket cannot
   *     be made safely
   * @throws IOException when the socket cannot be bound
   */
  static ResidentServer start(Target target, Environment env, Duration idle, PrintStream log,
      CommandRunner runner) throws CliFailure, IOException {
    Path socket = ServeProtocol.socket(target.home());
    int length = socket.toString().getBytes(StandardCharsets.UTF_8).length;
    if (length > ServeProtocol.MAX_SOCKET_PATH_BYTES) {
      throw new CliFailure(ExitCode.FAILURE, "the socket path " + socket + " is " + length
          + " bytes long, more than a Unix domain socket allows ("
          + ServeProtocol.MAX_SOCKET_PATH_BYTES + "); use --index-dir with a shorter path");
    }
    Path dir = privateDirectory(ServeProtocol.dir(target.home()));
    FileChannel lockFile = FileChannel.open(dir.resolve(ServeProtocol.LOCK),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = lockFile.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException | RuntimeException e) {
      lockFile.close();
      throw e;
    }
    if (lock == null) {
      lockFile.close();
      throw new CliFailure(ExitCode.FAILURE, "a server is already running for " + target.root()
          + " (socket " + socket + ")");
    }
    ServerSocketChannel channel = null;
    try {
      if (Files.deleteIfExists(socket)) {
        log.println(SafeText.escapeField("prism-index serve: removed the socket of a server that"
            + " did not stop (" + socket + ")"));
      }
      channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      channel.bind(UnixDomainSocketAddress.of(socket));
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      Files.deleteIfExists(socket);
      lockFile.close();
      throw e;
    }
    ResidentServer server = new ResidentServer(target, env, idle, log, socket, lockFile, lock,
        channel, runner);
    server.begin();
    return server;
  }

  /**
   * Creates the directory with mode 0700 (and a {@code .gitignore} of {@code *}), or checks an
   * existing one and closes it to others.
   */
  private static Path privateDirectory(Path dir) throws CliFailure, IOException {
    Files.createDirectories(dir.getParent());
    try {
      Files.createDirectory(dir,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
      if (!a.isDirectory()) {
        throw new CliFailure(ExitCode.FAILURE, dir + " exists and is not a directory; remove it");
      }
      if (!ServeClient.ownedByThisUser(dir, a)) {
        throw new CliFailure(ExitCode.FAILURE, dir + " belongs to " + a.owner().getName()
            + ", not to this user; remove it");
      }
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    // Out of `git status` even before the first index run has written the home's own .gitignore.
    Path ignore = dir.resolve(".gitignore");
    if (!Files.exists(ignore, LinkOption.NOFOLLOW_LINKS)) {
      Files.writeString(ignore, "*\n", StandardCharsets.UTF_8);
    }
    return dir;
  }

  private void begin() {
    Thread acceptor = daemon("prism-index-serve-accept").newThread(this::acceptLoop);
    acceptor.start();
    long period = idle.isZero() ? 1000 : Math.max(10, Math.min(1000, idle.toMillis() / 4));
    ticker.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
    log.println(SafeText.escapeField("prism-index serve: answering for " + target.root() + " on "
        + socket + " (idle timeout " + (idle.isZero() ? "none" : Requests.formatDuration(idle))
        + ")"));
    log.flush();
    Thread warmUp = daemon("prism-index-serve-warm-up").newThread(this::warmUp);
    warmUp.start();
  }

  /** Opens the index and loads the model (through a search in each kind of mode) ahead of time. */
  private void warmUp() {
    // No mode (the automatic choice: hybrid or lexical), then literal.
    for (SearchMode mode : Arrays.asList(null, SearchMode.LITERAL)) {
      try {
        warm.search(new SearchRequest(target, true, "prism-index warm-up", mode, 1, null, false,
            false, 0));
      } catch (Exception | LinkageError e) {
        // No index yet, no model, or the server stopping meanwhile: the first request pays.
        LOG.debug("warm-up ({}) skipped: {}", mode == null ? "auto" : mode.wireName(),
            e.toString());
        return;
      }
    }
  }

  private void tick() {
    if (stopping) {
      return;
    }
    if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
      stop("the socket " + socket + " was removed");
    } else if (!idle.isZero() && active.get() == 0
        && System.nanoTime() - lastActivityNanos >= idle.toNanos()) {
      stop("idle for " + Requests.formatDuration(idle));
    }
  }

  private void acceptLoop() {
    while (!stopping) {
      SocketChannel ch;
      try {
        ch = channel.accept();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        if (stopping) {
          return;
        }
        LOG.warn("accepting a connection failed: {}", e.toString());
        continue;
      }
      active.incrementAndGet();
      lastActivityNanos = System.nanoTime();
      try {
        workers.execute(() -> {
          try (SocketChannel c = ch) {
            connections.answer(c);
          } catch (IOException | RuntimeException e) {
            LOG.debug("a connection ended early: {}", e.toString());
          } finally {
            lastActivityNanos = System.nanoTime();
            active.decrementAndGet();
          }
        });
      } catch (RejectedExecutionException e) {
        active.decrementAndGet();
        try {
          ch.close();
        } catch (IOException ignored) {
          // the client falls back to running the command itself
        }
      }
    }
  }

  /** Waits until the server has stopped. */
  void await() throws InterruptedException {
    stopped.await();
  }

  /** Whether the server has stopped (its socket removed, its index closed, its lock released). */
  boolean isStopped() {
    return stopped.getCount() == 0;
  }

  Path socket() {
    return socket;
  }

  /**
   * Stops: no new connections, the socket removed, the answers in flight finished, the index
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
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("closing the socket failed", e);
    }
    try {
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      LOG.warn("could not remove the socket {}: {}", socket, e.toString());
    }
    ticker.shutdown(); // not shutdownNow: stop() may run on the ticker's thread
    workers.shutdown();
    try {
      if (!workers.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("answers still running after five minutes; closing the index anyway");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      warm.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("closing the index failed: {}", e.toString());
    }
    try {
      lock.release();
      lockFile.close();
    } catch (IOException e) {
      LOG.debug("releasing the server lock failed", e);
    }
    log.println(SafeText.escapeField("prism-index serve: stopped (" + stopReason + ")"));
    log.flush();
    stopped.countDown();
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
