package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Launcher;
import dev.prismindex.cli.Launcher.Run;
import dev.prismindex.cli.command.ExitCode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: {@code prism-index serve}, {@code search} and {@code status} through the real
 * launcher and the shaded jar, with the server ({@code PRISM_INDEX_SERVE=require}) and
 * without it ({@code PRISM_INDEX_SERVE=0}): the same stdout, stderr and exit code; concurrent
 * clients; a server killed with SIGKILL (its port file left behind: clients fall back, the next
 * server replaces it); SIGTERM and the idle exit remove the port file; a second server is refused.
 * Nothing waits on a clock: the server's readiness is the line it prints, its end its exit. (The
 * servers started in the background by a search are {@code AutoServeIT}'s.)
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ServeIT {

  @TempDir static Path repo;
  static Launcher built;
  static Path launcher;
  static Path portFile;
  static Path home;
  static ServerProcess server;
  static final List<Process> started = new ArrayList<>();

  /** A {@code serve} process and the lines of its stderr. */
  record ServerProcess(Process process, LinkedBlockingQueue<String> lines) {
    /** The next line of stderr; fails when the server ends without printing one. */
    String nextLine() throws InterruptedException {
      String line = lines.take();
      assertThat(line).as("the server printed a line before ending").isNotEqualTo(EOF);
      return line;
    }
  }

  static final String EOF = "\u0000eof";

  @BeforeAll
  static void setUp() throws Exception {
    built = Launcher.ofThisBuild();
    launcher = built.script;
    home = repo.resolve(".prism-index");
    portFile = home.resolve("serve/serve.port");
    Files.createDirectories(repo.resolve("src/demo"));
    Files.writeString(repo.resolve("src/demo/Duration.java"), """
        package demo;

        /** Parses human-readable durations. */
        public final class Duration {
          /** Parses text such as 5s or 2m into milliseconds. */
          public static long parseDuration(String text) {
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }
        }
        """, StandardCharsets.UTF_8);
    Files.writeString(repo.resolve("src/demo/Retry.java"), """
        package demo;

        /** Retries a failing call with exponential backoff. */
        final class Retry {
          static long backoffMillis(int attempt) {
            return 100L << Math.min(attempt, 10);
          }
        }
        """, StandardCharsets.UTF_8);
    Files.writeString(repo.resolve("README.md"), "# Demo\n\nDurations and retries.\n",
        StandardCharsets.UTF_8);
    // Enough hits for an answer of several frames (ServeConnection.Stream.CHUNK).
    for (int f = 0; f < 4; f++) {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 2_500; i++) {
        lines.append("zebrafish ").append(f).append(' ').append(i).append('\n');
      }
      Files.writeString(repo.resolve("src/demo/fish" + f + ".txt"), lines, StandardCharsets.UTF_8);
    }
    Run index = launch("0", "index");
    assertThat(index.exit()).as(index.toString()).isZero();
    // The launcher records its class-data archive in-process on the first search after a build
    // (unless PRISM_INDEX_SERVE=require): let that happen here, without starting a server.
    assertThat(launch("0", "search", "parse").exit()).isZero();
    assertThat(portFile).doesNotExist();
  }

  @AfterAll
  static void tearDown() throws Exception {
    started.forEach(Process::destroyForcibly);
    for (Process p : started) {
      p.waitFor(1, TimeUnit.MINUTES);
    }
    // And any server a search started in the background.
    built.stopServers(repo, home);
  }

  /** Runs the launcher in the repository with PRISM_INDEX_SERVE={@code serve}. */
  static Run launch(String serve, String... args) throws Exception {
    ProcessBuilder pb = built.launcher(repo, args);
    pb.environment().put("PRISM_INDEX_SERVE", serve);
    return Launcher.run(pb);
  }

  /**
   * Starts {@code scripts/prism-index serve ARGS} in the repository; the launcher execs the JVM, so
   * the process is the server itself (signals reach it).
   */
  static ServerProcess serve(String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(launcher.toString(), "serve"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = built.command(repo, cmd);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    Process p = pb.start();
    started.add(p);
    return reading(p);
  }

  /** {@code p} with a thread that reads its stderr into the lines of the result. */
  static ServerProcess reading(Process p) {
    LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the process ended
      } finally {
        lines.add(EOF);
      }
    }, "serve-it-stderr");
    reader.setDaemon(true);
    reader.start();
    return new ServerProcess(p, lines);
  }

  static final List<List<String>> COMMANDS = List.of(
      List.of("search", "parse duration", "--json", "--mode", "lexical"),
      List.of("search", "retry with backoff", "--json", "--mode", "hybrid"),
      List.of("search", "Long.parseLong", "--json", "--mode", "literal"),
      List.of("search", "parse duration"),
      List.of("search", "backoff", "--mode", "semantic", "--limit", "2"),
      List.of("status", "--json"),
      List.of("status"),
      List.of("search", "x", "--mode", "fuzzy"));

  static void assertSameAsInProcess(Run served, Run local, List<String> command) {
    assertThat(served.exit()).as("exit of %s: %s", command, served).isEqualTo(local.exit());
    assertThat(WarmBackendTest.normalise(served.out())).as("stdout of %s", command)
        .isEqualTo(WarmBackendTest.normalise(local.out()));
    assertThat(WarmBackendTest.normalise(served.err())).as("stderr of %s", command)
        .isEqualTo(WarmBackendTest.normalise(local.err()));
  }

  @Test
  @Order(1)
  void theLauncherPrintsTheSameWithAndWithoutTheServer() throws Exception {
    assertThat(launch("require", "search", "parse").err())
        .contains("no resident server answered");
    server = serve("--idle-timeout", "10m");
    assertThat(server.nextLine()).startsWith("prism-index serve: answering for " + repo);
    assertThat(portFile).exists();
    for (List<String> command : COMMANDS) {
      String[] args = command.toArray(String[]::new);
      assertSameAsInProcess(launch("require", args), launch("0", args), command);
    }
  }


  @Test
  @Order(2)
  void aLargeAnswerStreamsInFramesAndStaysTheSame() throws Exception {
    // Over a mebibyte of NDJSON: out frames copied by the bash client's head, then the rest.
    for (List<String> command : List.of(List.of("search", "-e", "zebra[f]ish", "--json"),
        List.of("search", "-e", "zebrafish \\d+ 1"))) {
      String[] args = command.toArray(String[]::new);
      Run served = launch("require", args);
      assertThat(served.out().length()).as("%s", command)
          .isGreaterThan(command.contains("--json") ? 2 << 20 : 10_000);
      assertSameAsInProcess(served, launch("0", args), command);
    }
    // A reader that stops early: exit 0, nothing on stderr, and the server still answers.
    ProcessBuilder pb = built.command(repo, List.of("bash", "-c",
        "\"$0\" \"$@\" | head -c 100 >/dev/null; exit ${PIPESTATUS[0]}", launcher.toString(),
        "search", "-e", "zebrafish", "--json"));
    pb.environment().put("PRISM_INDEX_SERVE", "require");
    Run cut = Launcher.run(pb);
    assertThat(cut.exit()).as(cut.toString()).isZero();
    assertThat(cut.err()).isEmpty();
    List<String> after = List.of("search", "parse duration", "--json", "--mode", "lexical");
    assertSameAsInProcess(launch("require", after.toArray(String[]::new)),
        launch("0", after.toArray(String[]::new)), after);
  }
  @Test
  @Order(2)
  void concurrentClients() throws Exception {
    List<Run> expected = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      expected.add(launch("0", COMMANDS.get(k).toArray(String[]::new)));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Run>> runs = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        int k = i % 3;
        runs.add(pool.submit(() -> launch("require", COMMANDS.get(k).toArray(String[]::new))));
      }
      for (int i = 0; i < runs.size(); i++) {
        assertSameAsInProcess(runs.get(i).get(5, TimeUnit.MINUTES), expected.get(i % 3),
            COMMANDS.get(i % 3));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @Order(3)
  void aSecondServerForTheSameIndexIsRefused() throws Exception {
    ServerProcess second = serve("--idle-timeout", "10m");
    assertThat(second.process().waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(second.process().exitValue()).isEqualTo(ExitCode.FAILURE);
    assertThat(second.nextLine())
        .isEqualTo("prism-index serve: a server is already running for " + repo + " (see "
            + portFile + ")");
    assertThat(launch("require", "status", "--json").exit()).isZero();
  }

  /**
   * Issue 41, item 1: a server that does not answer (here stopped with SIGSTOP, as Ctrl-Z stops a
   * server in a terminal) costs a client no wait: the launcher sees the stopped process and does
   * not even connect, says so on stderr and runs the command in-process, without asking the
   * server again from the JVM; required, it fails at once (it waited without end before).
   */
  @Test
  @Order(4)
  void aStoppedServerIsPassedOverAtOnceAndTheUserIsTold() throws Exception {
    long pid = server.process().pid();
    List<String> command = COMMANDS.get(0);
    Run local = launch("0", command.toArray(String[]::new));
    signal("STOP", pid);
    awaitState(pid, 'T');
    try {
      Run required = launch("require", "search", "parse");
      assertThat(required.exit()).as(required.toString()).isEqualTo(ExitCode.FAILURE);
      assertThat(required.out()).isEmpty();
      assertThat(required.err()).isEqualTo("prism-index: no resident server answered for " + home
          + ": the server (pid " + pid + ") is stopped (PRISM_INDEX_SERVE=require)\n");
      Run auto = launch("auto", command.toArray(String[]::new));
      assertThat(auto.exit()).as(auto.toString()).isEqualTo(local.exit());
      assertThat(auto.out()).isEqualTo(local.out());
      assertThat(auto.err()).isEqualTo("prism-index: the resident server of " + home
          + " did not answer (the server (pid " + pid + ") is stopped); running the command in"
          + " this process\n" + local.err());
    } finally {
      signal("CONT", pid);
    }
    assertSameAsInProcess(launch("require", command.toArray(String[]::new)), local, command);
  }

  /**
   * Waits until the kernel reports {@code state} for {@code pid} in /proc (a signal is delivered
   * when the process is next scheduled: on a loaded machine, after {@code kill} has returned).
   */
  static void awaitState(long pid, char state) throws Exception {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      String line = Files.readString(stat);
      if (line.charAt(line.lastIndexOf(')') + 2) == state) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("process " + pid + " did not reach state " + state + " in 30 s");
  }

  static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
    assertThat(kill.waitFor(1, TimeUnit.MINUTES)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  @Test
  @Order(5)
  void aKilledServerLeavesAPortFileThatClientsAndTheNextServerHandle() throws Exception {
    // SIGKILL: no shutdown hook runs. (Through the handle: Process.destroy* would also close our
    // end of its stderr, losing what it prints.)
    server.process().toHandle().destroyForcibly();
    assertThat(server.process().waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(server.process().exitValue()).isEqualTo(137);
    assertThat(portFile).as("the killed server could not remove its port file").exists();
    List<String> command = COMMANDS.get(1);
    Run local = launch("0", command.toArray(String[]::new));
    // Nobody listens on its port: the launcher's client and the JVM's pass it over. (Without
    // PRISM_INDEX_SERVE=require the command runs in-process and starts a server in the
    // background: AutoServeIT.)
    Run required = launch("require", "status");
    assertThat(required.exit()).as(required.toString()).isEqualTo(ExitCode.FAILURE);
    assertThat(required.err()).contains("no resident server answered for " + home)
        .contains("no server listening on port ");

    server = serve("--idle-timeout", "10m");
    assertThat(server.nextLine()).isEqualTo("prism-index serve: removed the port file of a"
        + " server that did not stop (" + portFile + ")");
    assertThat(server.nextLine()).startsWith("prism-index serve: answering for " + repo);
    assertSameAsInProcess(launch("require", command.toArray(String[]::new)), local, command);
  }

  @Test
  @Order(6)
  void sigtermStopsTheServerAndRemovesItsPortFile() throws Exception {
    assertThat(server.process().isAlive()).isTrue();
    server.process().toHandle().destroy(); // SIGTERM
    assertThat(server.process().waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(server.process().exitValue()).isEqualTo(143);
    assertThat(server.nextLine()).isEqualTo("prism-index serve: stopped (terminated)");
    assertThat(portFile).doesNotExist();
    server = null;
  }

  @Test
  @Order(7)
  void anIdleServerStopsByItself() throws Exception {
    ServerProcess idle = serve("--idle-timeout", "1s");
    assertThat(idle.nextLine()).startsWith("prism-index serve: answering for " + repo);
    assertThat(idle.process().waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(idle.process().exitValue()).isZero();
    assertThat(idle.nextLine()).isEqualTo("prism-index serve: stopped (idle for 1s)");
    assertThat(portFile).doesNotExist();
    Run r = launch("0", "search", "parse duration", "--json", "--mode", "lexical");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("src/demo/Duration.java");
  }

  /**
   * Issue 41, item 1: a port that accepts the request and never says hello (a wedged server; here
   * the test's own socket) is given up by the launcher's client within its 2 s, which says so; the
   * command then runs in-process without asking again from the JVM. Required, it fails (exit 1).
   */
  @Test
  @Order(8)
  void aServerThatNeverSaysHelloIsGivenUpFastAndTheUserIsTold() throws Exception {
    List<String> command = COMMANDS.get(0);
    Run local = launch("0", command.toArray(String[]::new));
    long pid = ProcessHandle.current().pid();
    try (java.net.ServerSocket mute = new java.net.ServerSocket(0, 50,
        java.net.InetAddress.getLoopbackAddress())) {
      Files.writeString(portFile, mute.getLocalPort() + " " + "d".repeat(64) + " " + pid + "\n",
          StandardCharsets.US_ASCII);
      Files.setPosixFilePermissions(portFile,
          java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      String why = "no hello within 2000 ms: the server (pid " + pid + ") is stalled";
      Run required = launch("require", "search", "parse");
      assertThat(required.exit()).as(required.toString()).isEqualTo(ExitCode.FAILURE);
      assertThat(required.err()).isEqualTo("prism-index: no resident server answered for " + home
          + ": " + why + " (PRISM_INDEX_SERVE=require)\n");
      Run auto = launch("auto", command.toArray(String[]::new));
      assertThat(auto.exit()).as(auto.toString()).isEqualTo(local.exit());
      assertThat(auto.out()).isEqualTo(local.out());
      assertThat(auto.err()).isEqualTo("prism-index: the resident server of " + home
          + " did not answer (" + why + "); running the command in this process\n"
          + local.err());
    } finally {
      Files.deleteIfExists(portFile);
    }
  }
}
