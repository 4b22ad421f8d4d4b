package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Launcher;
import dev.prismindex.cli.Launcher.Run;
import dev.prismindex.cli.command.ExitCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident server's life as a user meets it, through the real launcher and the shaded jar on
 * a small git repository indexed lexically: a search with no server answers in its own process and
 * leaves a server running in the background; the next ones are answered by the launcher's bash
 * client with exactly the bytes and exit code of the in-process command, without starting a JVM
 * (proved by a {@code JAVA_HOME} whose {@code java} only leaves a marker and fails); an edit and a
 * deletion are seen by the next search without {@code index}; a wrong token is refused and the
 * command still answers; a server killed with SIGKILL is replaced; {@code PRISM_INDEX_SERVE=0}
 * never starts one, {@code =require} fails without one; {@code serve --stop} stops it. Waits poll
 * (up to 30 s); nothing asserts a duration. Every server is stopped at the end.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class AutoServeIT {

  @TempDir static Path repo;
  @TempDir static Path scratch;
  static Launcher built;
  static Path home;
  static Path portFile;
  static Path serveLog;
  static Path fakeJavaHome;
  static Path marker;

  /** A line no shell may interpret and no encoding may mangle, found by a literal search. */
  static final String WEIRD = "$(touch pwned) `touch pwned` ; | & > * ? ~ ü € 日本 'q' \"dq\" \\ %s";

  @BeforeAll
  static void setUp() throws Exception {
    built = Launcher.ofThisBuild();
    home = repo.resolve(".prism-index");
    portFile = home.resolve("serve/serve.port");
    serveLog = home.resolve("serve/serve.log");
    Launcher.write(repo, "src/demo/Duration.java", """
        package demo;

        /** Parses human-readable durations. */
        public final class Duration {
          /** Parses text such as 5s or 2m into milliseconds. */
          public static long parseDuration(String text) {
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }
        }
        """);
    Launcher.write(repo, "src/demo/Retry.java", """
        package demo;

        /** Retries a failing call with exponential backoff. */
        final class Retry {
          static long backoffMillis(int attempt) {
            return 100L << Math.min(attempt, 10);
          }
        }
        """);
    Launcher.write(repo, "notes/weird.txt", "before\nweird: " + WEIRD + " end\nafter\n");
    StringBuilder hay = new StringBuilder();
    for (int i = 1; i <= 1500; i++) {
      hay.append("needle number ").append(i).append(" in a haystack of generated lines\n");
    }
    Launcher.write(repo, "data/haystack.txt", hay.toString());
    Launcher.write(repo, "README.md", "# Demo\n\nDurations and retries.\n");
    // Left out of the index: a literal search says so on stderr ("note: not searched: ...").
    Files.write(repo.resolve("data/blob.bin"), new byte[] {'n', 'e', 'e', 'd', 'l', 'e', 0, 1, 2});
    Launcher.commitAll(repo);
    Run index = inProcess("index", "--no-semantic");
    assertThat(index.exit()).as(index.toString()).isZero();
    // The first search after a build records the launcher's class-data archive, in its own
    // process and without a server (-Dprism-index.serve=off): let that happen here.
    Run first = inProcess("search", "parse");
    assertThat(first.exit()).as(first.toString()).isZero();

    // A java that must never run: it leaves a marker and fails.
    fakeJavaHome = scratch.resolve("no-jvm");
    marker = scratch.resolve("a-jvm-was-started");
    Path java = Files.createDirectories(fakeJavaHome.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"$@\" >> '" + marker + "'\nexit 99\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterAll
  static void tearDown() throws Exception {
    built.stopServers(repo, home);
    assertThat(Launcher.serversOf(home)).as("no server outlives the tests").isEmpty();
  }

  // --- running the launcher -------------------------------------------------------------------

  private static ProcessBuilder launcher(Path dir, List<String> env, String... args) {
    ProcessBuilder pb = built.launcher(dir, args);
    pb.environment().remove("PRISM_INDEX_SERVE");
    for (String e : env) {
      int eq = e.indexOf('=');
      pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
    }
    return pb;
  }

  /** The command in its own JVM, no server used or started ({@code PRISM_INDEX_SERVE=0}). */
  static Run inProcess(String... args) throws Exception {
    return Launcher.run(launcher(repo, List.of("PRISM_INDEX_SERVE=0"), args));
  }

  /** The command as a user runs it: a server if one answers, else in-process and start one. */
  static Run auto(String... args) throws Exception {
    return Launcher.run(launcher(repo, List.of(), args));
  }

  /**
   * The command answered by the launcher's bash client: with a {@code JAVA_HOME} whose java only
   * leaves a marker, so a run that started a JVM fails the test.
   */
  static Run servedByBash(String... args) throws Exception {
    return servedByBash(repo, args);
  }

  static Run servedByBash(Path dir, String... args) throws Exception {
    return servedByBash(dir, List.of(), args);
  }

  /** {@link #servedByBash(Path, String...)} with more environment variables. */
  static Run servedByBash(Path dir, List<String> env, String... args) throws Exception {
    Files.deleteIfExists(marker);
    List<String> all = new ArrayList<>(env);
    all.add("JAVA_HOME=" + fakeJavaHome);
    Run r = Launcher.run(launcher(dir, all, args));
    assertThat(marker).as("the launcher started a JVM for %s: %s", List.of(args), r)
        .doesNotExist();
    assertThat(r.exit()).as("%s", r).isNotEqualTo(99);
    return r;
  }

  /** {@code launcher ARGS | head -c 1} in bash; the launcher's exit code and what head printed. */
  static Run headOfOne(List<String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", "-c",
        "\"$@\" | head -c 1; exit \"${PIPESTATUS[0]}\"", "head-of-one",
        built.script.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = built.command(repo, cmd);
    pb.environment().remove("PRISM_INDEX_SERVE");
    for (String e : env) {
      int eq = e.indexOf('=');
      pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
    }
    return Launcher.run(pb);
  }

  // --- the server ------------------------------------------------------------------------------

  /** What the port file says: port, token, pid. */
  record Endpoint(int port, String token, long pid) {}

  static Optional<Endpoint> endpoint() {
    try {
      String[] w = Files.readString(portFile, StandardCharsets.US_ASCII).strip().split(" ");
      return Optional.of(new Endpoint(Integer.parseInt(w[0]), w[1], Long.parseLong(w[2])));
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("within 30 s: %s", what).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /** Waits for a running server (other than {@code not}) in the port file; returns it. */
  static Endpoint awaitServer(long not) throws Exception {
    await("a server in " + portFile + " (other than pid " + not + "); log:\n" + log(), () -> {
      Optional<Endpoint> e = endpoint();
      return e.isPresent() && e.get().pid() != not && alive(e.get().pid());
    });
    return endpoint().orElseThrow();
  }

  static String log() {
    try {
      return Files.readString(serveLog, StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "(no log: " + e + ")";
    }
  }

  static void assertSame(Run served, Run local, List<String> command) {
    assertThat(served.exit()).as("exit of %s: %s", command, served).isEqualTo(local.exit());
    assertThat(WarmBackendTest.normalise(served.out())).as("stdout of %s", command)
        .isEqualTo(WarmBackendTest.normalise(local.out()));
    assertThat(WarmBackendTest.normalise(served.err())).as("stderr of %s", command)
        .isEqualTo(WarmBackendTest.normalise(local.err()));
  }

  // --- the tests -------------------------------------------------------------------------------

  @Test
  @Order(1)
  void offNeverStartsAServerAndRequireFailsWithoutOne() throws Exception {
    Run off = inProcess("search", "parseDuration", "--json");
    assertThat(off.exit()).as(off.toString()).isZero();
    assertThat(off.out()).contains("src/demo/Duration.java");
    // A server would have been started before the launcher returned: none runs, none is coming.
    assertThat(Launcher.serversOf(home)).isEmpty();
    assertThat(portFile).doesNotExist();
    assertThat(inProcess("status", "--json").exit()).isZero();
    assertThat(Launcher.serversOf(home)).isEmpty();

    Run required = Launcher.run(launcher(repo, List.of("PRISM_INDEX_SERVE=require"), "search",
        "parseDuration", "--json"));
    assertThat(required.exit()).as(required.toString()).isEqualTo(ExitCode.FAILURE);
    assertThat(required.out()).isEmpty();
    assertThat(required.err()).isEqualTo("prism-index: no resident server answered for " + home
        + ": no server (no port file) (PRISM_INDEX_SERVE=require)\n");
    assertThat(Launcher.serversOf(home)).isEmpty();
    assertThat(portFile).doesNotExist();
  }

  @Test
  @Order(2)
  void aSearchWithoutAServerAnswersInItsOwnProcessAndStartsOne() throws Exception {
    List<String> command = List.of("search", "parseDuration", "--json");
    Run local = inProcess(command.toArray(String[]::new));
    Run first = auto(command.toArray(String[]::new));
    assertSame(first, local, command);

    Endpoint server = awaitServer(-1);
    assertThat(Launcher.serversOf(home)).extracting(ProcessHandle::pid)
        .containsExactly(server.pid());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(portFile,
        LinkOption.NOFOLLOW_LINKS))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(portFile.getParent(),
        LinkOption.NOFOLLOW_LINKS))).isEqualTo("rwx------");
    assertThat(server.token()).matches("[0-9a-f]{64}");
    // (The port file is written just before the server says so in its log.)
    String answering = "prism-index serve: answering for " + repo + " on 127.0.0.1:"
        + server.port() + ", pid " + server.pid() + " (idle timeout 15m)";
    await("the server's log says " + answering, () -> log().contains(answering));
    // The index directory stays out of `git status` (the server's directory too).
    ProcessBuilder status = new ProcessBuilder("git", "status", "--porcelain")
        .directory(repo.toFile()).redirectErrorStream(true);
    Process p = status.start();
    String porcelain = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    assertThat(porcelain).isEmpty();

    // The next one is served, without a JVM.
    assertSame(servedByBash(command.toArray(String[]::new)), local, command);
  }

  @Test
  @Order(3)
  void servedAnswersAreTheInProcessAnswersByteForByte() throws Exception {
    awaitServer(-1);
    List<List<String>> commands = List.of(
        List.of("search", "parseDuration", "--json"),
        List.of("search", "parse duration"),
        List.of("search", "retry backoff", "--limit", "1", "--path", "src"),
        List.of("search", "Long.parseLong", "--mode", "literal", "--json"),
        List.of("search", "needle number 7", "--mode", "literal", "--limit", "3"),
        // No hit, human and NDJSON.
        List.of("search", "zqxjkvbw nothing like this", "--mode", "lexical"),
        List.of("search", "zqxjkvbw", "--mode", "literal", "--json"),
        // Usage errors (exit 2).
        List.of("search"),
        List.of("search", "x", "--mode", "fuzzy"),
        List.of("search", "x", "--limit", "0"),
        List.of("search", "x", "--bogus"),
        List.of("status", "--json"),
        List.of("status"),
        // Shell metacharacters and non-ASCII, as one argument.
        List.of("search", WEIRD, "--mode", "literal"),
        List.of("search", WEIRD, "--mode", "literal", "--json"),
        List.of("search", "ü € 日本", "--mode", "lexical", "--json"),
        // The grep options (issue 18): context, type, glob, several paths, the type list.
        List.of("search", "needle number", "--mode", "literal", "-C", "1", "--limit", "3"),
        List.of("search", "needle number", "--mode", "literal", "-A", "1", "--json", "--limit", "2"),
        List.of("search", "parse", "-t", "java", "-g", "!**/Retry*", "--json"),
        List.of("search", "backoff", "--path", "src", "--path", "notes", "--mode", "lexical"),
        List.of("search", "--type-list"),
        List.of("search", "x", "-C", "-1"),
        List.of("search", "x", "-t", "jav"));
    for (List<String> command : commands) {
      String[] args = command.toArray(String[]::new);
      assertSame(servedByBash(args), inProcess(args), command);
    }
    // The variables of the defaults go to the server with the command line.
    List<String> limit = List.of("PRISM_INDEX_LIMIT=1");
    Run limited = servedByBash(repo, limit, "search", "needle number", "--mode", "literal",
        "--json");
    assertThat(limited.out().lines()).hasSize(1);
    assertSame(limited, Launcher.run(launcher(repo, List.of("PRISM_INDEX_SERVE=0",
        "PRISM_INDEX_LIMIT=1"), "search", "needle number", "--mode", "literal", "--json")),
        List.of("PRISM_INDEX_LIMIT=1", "search"));
    // Among them, stderr notes around human output, and a no-hit answer.
    Run noted = inProcess("search", "needle number 7", "--mode", "literal", "--limit", "3");
    assertThat(noted.err()).isEqualTo("note: not searched: 1 file left out of the index (binary 1);"
        + " see docs/cli.md\nnote: 3 of at least 4 hits shown; --limit to see more\n");
    assertThat(noted.out()).contains("data/haystack.txt:7");
    assertThat(inProcess("search", "zqxjkvbw nothing like this", "--mode", "lexical").out())
        .contains("0 hits for").endsWith("no hits\n");
    assertThat(repo.resolve("pwned")).doesNotExist();
    Run weird = servedByBash("search", WEIRD, "--mode", "literal", "--json");
    assertThat(weird.out()).contains("\"path\":\"notes/weird.txt\"").contains("\"line\":2");

    // From a sub-directory, the repository found above it; and with --repo and --index-dir given.
    Path sub = repo.resolve("src/demo");
    List<String> status = List.of("status", "--json");
    assertSame(servedByBash(sub, "status", "--json"),
        Launcher.run(launcher(sub, List.of("PRISM_INDEX_SERVE=0"), "status", "--json")), status);
    List<String> explicit = List.of("--repo", "../..", "--index-dir", "../../.prism-index",
        "search", "backoff", "--json");
    assertSame(servedByBash(sub, explicit.toArray(String[]::new)),
        Launcher.run(launcher(sub, List.of("PRISM_INDEX_SERVE=0"),
            explicit.toArray(String[]::new))), explicit);
  }

  @Test
  @Order(4)
  void aClosedStdoutEndsTheServedCommandWithExitZero() throws Exception {
    awaitServer(-1);
    // Far more than a pipe holds: the writer meets the closed pipe whichever client writes.
    for (List<String> args : List.of(
        List.of("search", "needle", "--mode", "literal", "--limit", "1000", "--json"),
        List.of("search", "needle", "--mode", "literal", "--limit", "1000"))) {
      Run local = headOfOne(List.of("PRISM_INDEX_SERVE=0"), args.toArray(String[]::new));
      Files.deleteIfExists(marker);
      Run served = headOfOne(List.of("JAVA_HOME=" + fakeJavaHome), args.toArray(String[]::new));
      assertThat(marker).as("served without a JVM: %s", served).doesNotExist();
      assertThat(local.exit()).as(local.toString()).isZero();
      assertThat(served.exit()).as(served.toString()).isZero();
      assertThat(served.out()).hasSize(1).isEqualTo(local.out());
      assertThat(WarmBackendTest.normalise(served.err()))
          .isEqualTo(WarmBackendTest.normalise(local.err()));
    }
  }

  @Test
  @Order(4)
  void anAnswerWithoutStdoutForksNoCatAndOneWithHitsStillPrintsThem() throws Exception {
    awaitServer(-1);
    // A cat first on the PATH that leaves a mark, then runs the real one (the next PATH entry).
    Path bin = Files.createDirectories(scratch.resolve("counting-cat"));
    Path catMark = scratch.resolve("cat-ran");
    Path cat = bin.resolve("cat");
    Files.writeString(cat, "#!/bin/sh\ntouch '" + catMark + "'\nPATH=${PATH#*:} exec cat \"$@\"\n");
    Files.setPosixFilePermissions(cat, PosixFilePermissions.fromString("rwx------"));
    List<String> path = List.of("PATH=" + bin + ":" + System.getenv("PATH"));
    int withoutStdout = 0;
    for (List<String> args : List.of(
        List.of("search", "zqxjkvbw", "--mode", "literal"),
        List.of("search", "zqxjkvbw", "--mode", "literal", "--json"),
        List.of("search", "needle", "--mode", "literal", "--limit", "3"))) {
      Files.deleteIfExists(catMark);
      Run served = servedByBash(repo, path, args.toArray(String[]::new));
      Run local = inProcess(args.toArray(String[]::new));
      assertSame(served, local, args);
      if (local.out().isEmpty()) {
        assertThat(catMark).as("no stdout, no cat: %s", args).doesNotExist();
        withoutStdout++;
      } else {
        assertThat(catMark).as("hits are copied by cat: %s", args).exists();
      }
    }
    assertThat(withoutStdout).as("answers without stdout").isPositive();
  }

  @Test
  @Order(5)
  void anEditIsSeenByTheNextSearchAndADeletedFilesHitsDisappear() throws Exception {
    awaitServer(-1);
    // A new file.
    Launcher.write(repo, "src/demo/Zebracorn.java", """
        package demo;

        /** The zebracorn gallops. */
        final class Zebracorn {}
        """);
    Run added = servedByBash("search", "zebracorn", "--json", "--mode", "lexical");
    assertThat(added.exit()).as(added.toString()).isZero();
    assertThat(added.json()).isNotEmpty();
    assertThat(added.json().get(0).get("path").asText()).isEqualTo("src/demo/Zebracorn.java");

    // An edited file: the new line, at its line number.
    Path retry = repo.resolve("src/demo/Retry.java");
    Files.writeString(retry, Files.readString(retry).replace("final class Retry {",
        "final class Retry {\n  // quokkaflight: the retry budget\n"));
    Run edited = servedByBash("search", "quokkaflight", "--json", "--mode", "literal");
    assertThat(edited.exit()).as(edited.toString()).isZero();
    assertThat(edited.json()).hasSize(1);
    assertThat(edited.json().get(0).get("path").asText()).isEqualTo("src/demo/Retry.java");
    assertThat(edited.json().get(0).get("line").asInt()).isEqualTo(5);
    // The in-process command agrees (its index is the same one).
    assertThat(WarmBackendTest.withoutFreshness(toResult(edited)))
        .isEqualTo(WarmBackendTest.withoutFreshness(toResult(
            inProcess("search", "quokkaflight", "--json", "--mode", "literal"))));

    // Deleted: its hits are gone, in every mode.
    Files.delete(repo.resolve("src/demo/Zebracorn.java"));
    for (String mode : List.of("lexical", "literal")) {
      Run gone = servedByBash("search", "zebracorn", "--json", "--mode", mode);
      assertThat(gone.exit()).as(gone.toString()).isZero();
      assertThat(gone.out()).as(mode).doesNotContain("Zebracorn.java");
    }
    Run status = servedByBash("status", "--json");
    assertThat(status.out()).contains("\"deleted\":0");
    // And a line removed from a file that stays.
    Files.writeString(retry, Files.readString(retry).replace("  // quokkaflight: the retry budget\n",
        ""));
    Run removed = servedByBash("search", "quokkaflight", "--json", "--mode", "literal");
    assertThat(removed.exit()).as(removed.toString()).isZero();
    assertThat(removed.out()).isEmpty();
  }

  private static dev.prismindex.cli.Harness.Result toResult(Run r) {
    return new dev.prismindex.cli.Harness.Result(r.exit(), r.out(), r.err());
  }

  @Test
  @Order(6)
  void aWrongTokenIsRefusedAndTheCommandStillAnswers() throws Exception {
    Endpoint server = awaitServer(-1);
    String right = Files.readString(portFile, StandardCharsets.US_ASCII);
    String wrong = (server.token().charAt(0) == 'a' ? "b" : "a") + server.token().substring(1);
    // Rewritten in place: the same file, owner and mode; only the token differs.
    Files.writeString(portFile, server.port() + " " + wrong + " " + server.pid() + "\n",
        StandardCharsets.US_ASCII);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(portFile)))
        .isEqualTo("rw-------");
    try {
      // The bash client is refused and leaves the command to the JVM (here, one that fails).
      Files.deleteIfExists(marker);
      Run refused = Launcher.run(launcher(repo, List.of("JAVA_HOME=" + fakeJavaHome), "search",
          "parseDuration"));
      assertThat(refused.exit()).as(refused.toString()).isEqualTo(99);
      assertThat(marker).exists();
      await("the server logs the refusal", () -> log().contains(
          "refused a connection with a wrong token"));

      // With a real JVM: refused again, answered in-process, the same output.
      List<String> command = List.of("search", "parseDuration", "--json");
      assertSame(auto(command.toArray(String[]::new)),
          inProcess(command.toArray(String[]::new)), command);
      assertThat(alive(server.pid())).as("the server keeps running").isTrue();
      // The refused command starts no second server: the first one holds the server lock.
      Thread.sleep(2000);
      assertThat(Launcher.serversOf(home)).as("only the first server runs; log:\n" + log())
          .extracting(ProcessHandle::pid).containsExactly(server.pid());
      assertThat(log()).doesNotContain("this one is not needed");
    } finally {
      Files.writeString(portFile, right, StandardCharsets.US_ASCII);
    }
    assertThat(endpoint()).contains(server);
    List<String> command = List.of("search", "parseDuration", "--json");
    assertSame(servedByBash(command.toArray(String[]::new)),
        inProcess(command.toArray(String[]::new)), command);
  }

  @Test
  @Order(7)
  void aServerKilledWithSigkillIsReplacedAndTheSearchStillAnswers() throws Exception {
    Endpoint old = awaitServer(-1);
    ProcessHandle handle = ProcessHandle.of(old.pid()).orElseThrow();
    handle.destroyForcibly();
    handle.onExit().get(30, TimeUnit.SECONDS);
    assertThat(endpoint()).as("the killed server could not remove its port file").contains(old);

    List<String> command = List.of("search", "retry with backoff");
    Run local = inProcess(command.toArray(String[]::new));
    assertSame(auto(command.toArray(String[]::new)), local, command);
    Endpoint replacement = awaitServer(old.pid());
    assertThat(replacement.token()).isNotEqualTo(old.token());
    await("the new server's log", () -> log().contains("prism-index serve: removed the port file"
        + " of a server that did not stop (" + portFile + ")"));
    assertThat(Launcher.serversOf(home)).extracting(ProcessHandle::pid)
        .containsExactly(replacement.pid());
    assertSame(servedByBash(command.toArray(String[]::new)), local, command);
  }

  @Test
  @Order(8)
  void serveStopStopsItAndRemovesThePortFile() throws Exception {
    Endpoint server = awaitServer(-1);
    Run stop = auto("--repo", repo.toString(), "serve", "--stop");
    assertThat(stop.exit()).as(stop.toString()).isZero();
    assertThat(stop.out()).isEmpty();
    assertThat(stop.err()).isEqualTo("prism-index serve: stopping the server of " + repo
        + " (pid " + server.pid() + ")\n");
    Optional<ProcessHandle> handle = ProcessHandle.of(server.pid());
    if (handle.isPresent()) {
      handle.get().onExit().get(30, TimeUnit.SECONDS);
    }
    await("the port file is removed", () -> !Files.exists(portFile));
    assertThat(log()).contains("prism-index serve: stopped (asked to stop)");
    assertThat(Launcher.serversOf(home)).isEmpty();

    Run again = auto("serve", "--stop");
    assertThat(again.exit()).as(again.toString()).isZero();
    assertThat(again.err()).isEqualTo("prism-index serve: no server answers for " + repo
        + " (no server (no port file))\n");
    Run required = Launcher.run(launcher(repo, List.of("PRISM_INDEX_SERVE=require"), "status"));
    assertThat(required.exit()).isEqualTo(ExitCode.FAILURE);
    assertThat(Launcher.serversOf(home)).isEmpty();
  }
}
