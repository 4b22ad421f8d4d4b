package dev.prismindex.repository;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Runs one {@code git} command with a fixed argument list, a cap on its standard output, a timeout
 * and an abort signal.
 *
 * <p>Every command runs as {@code git -c core.fsmonitor=false <args>} in the given directory, so a
 * repository's configuration cannot make git start an fsmonitor hook. The child's environment is
 * the JVM's minus the variables that would point git at another repository ({@code GIT_DIR},
 * {@code GIT_WORK_TREE}, {@code GIT_INDEX_FILE}, ...; {@code GIT_CEILING_DIRECTORIES} is kept),
 * with {@code GIT_OPTIONAL_LOCKS=0} and {@code GIT_TERMINAL_PROMPT=0}, plus any overrides given at
 * construction. Standard input is closed at once and standard error is discarded, so only standard
 * output is read, on the calling thread.
 *
 * <p>Timeouts, aborts and an output overflow kill the process and its descendants. The timeout kill
 * is scheduled on one shared daemon thread (created on first use) and cancelled as soon as the
 * command ends, and the abort listener is removed, so nothing is left behind per command.
 */
final class GitRunner {

  /** How a command ended. */
  enum Outcome {
    /** The process exited by itself; see the exit code. */
    EXITED,
    /** The timeout killed it. */
    TIMED_OUT,
    /** The abort signal killed it. */
    ABORTED,
    /** Its output exceeded the cap and it was killed. */
    OVERFLOW
  }

  /**
   * The outcome of a command.
   *
   * @param outcome how it ended
   * @param exitCode the exit code (meaningful for {@link Outcome#EXITED})
   * @param stdout everything it wrote to standard output, at most the cap
   */
  record Result(Outcome outcome, int exitCode, byte[] stdout) {}

  private static final List<String> SCRUBBED_VARIABLES = List.of("GIT_DIR", "GIT_WORK_TREE",
      "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
      "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX");

  private static final int RUNNING = 0;
  private static final int TIMED_OUT = 1;
  private static final int ABORTED = 2;
  private static final int OVERFLOWED = 3;
  private static final int FINISHED = 4;

  /** The shared watchdog: one daemon thread, created on first use. */
  private static final class Watchdog {
    static final ScheduledThreadPoolExecutor EXECUTOR = create();

    private static ScheduledThreadPoolExecutor create() {
      ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "prism-index-git-watchdog");
        thread.setDaemon(true);
        return thread;
      });
      executor.setRemoveOnCancelPolicy(true);
      return executor;
    }
  }

  private final String executable;
  private final Map<String, String> environment;

  /**
   * @param executable the git program
   * @param environment variables set in the child's environment after scrubbing
   */
  GitRunner(String executable, Map<String, String> environment) {
    this.executable = executable;
    this.environment = Map.copyOf(environment);
  }

  /**
   * Runs {@code git <args>} in {@code directory}.
   *
   * @throws IOException when the process cannot be started or its output cannot be read
   */
  Result run(Path directory, List<String> args, long maxOutputBytes, long timeoutMs,
      @Nullable AbortSignal signal) throws IOException {
    List<String> command = new ArrayList<>(args.size() + 3);
    command.add(executable);
    command.add("-c");
    command.add("core.fsmonitor=false");
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(directory.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    Map<String, String> env = builder.environment();
    SCRUBBED_VARIABLES.forEach(env::remove);
    env.put("GIT_OPTIONAL_LOCKS", "0");
    env.put("GIT_TERMINAL_PROMPT", "0");
    env.putAll(environment);

    if (signal != null && signal.isAborted()) {
      return new Result(Outcome.ABORTED, -1, new byte[0]);
    }
    Process process = builder.start();
    AtomicInteger state = new AtomicInteger(RUNNING);
    ScheduledFuture<?> timer = Watchdog.EXECUTOR.schedule(
        () -> kill(process, state, TIMED_OUT), timeoutMs, TimeUnit.MILLISECONDS);
    AbortSignal.Registration registration =
        signal == null ? () -> {} : signal.onAbort(() -> kill(process, state, ABORTED));
    try {
      process.getOutputStream().close();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = process.getInputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          if (out.size() + (long) n > maxOutputBytes) {
            kill(process, state, OVERFLOWED);
            break;
          }
          out.write(buffer, 0, n);
        }
      } catch (IOException e) {
        if (state.get() == RUNNING) {
          throw e;
        }
      }
      int exitCode;
      try {
        exitCode = process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        kill(process, state, ABORTED);
        exitCode = -1;
      }
      int ended = state.compareAndExchange(RUNNING, FINISHED);
      Outcome outcome = switch (ended) {
        case TIMED_OUT -> Outcome.TIMED_OUT;
        case ABORTED -> Outcome.ABORTED;
        case OVERFLOWED -> Outcome.OVERFLOW;
        default -> Outcome.EXITED;
      };
      return new Result(outcome, exitCode, out.toByteArray());
    } finally {
      timer.cancel(false);
      registration.close();
      if (process.isAlive()) {
        destroyTree(process);
      }
    }
  }

  private static void kill(Process process, AtomicInteger state, int reason) {
    if (state.compareAndSet(RUNNING, reason)) {
      destroyTree(process);
    }
  }

  /** Kills the process and anything it started that could keep its output pipe open. */
  private static void destroyTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}
