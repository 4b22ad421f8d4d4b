package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.cli.Harness;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.LocalBackend;
import dev.prismindex.cli.command.SearchConfig;
import dev.prismindex.cli.command.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident server in this JVM, reached through {@link ServeClient} over its real loopback port:
 * output identical to the in-process command, concurrent clients, one server per index, the port
 * file of a dead server, the idle exit, permissions, the token, peers that are not prism-index
 * servers, clients of other code, {@code serve --stop} and the request format. (The end-to-end
 * tests through the launcher and a server process are in {@code ServeIT} and {@code AutoServeIT}.)
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ResidentServerTest {

  @TempDir Path repo;
  Harness cli;
  Target target;
  final List<ResidentServer> servers = new ArrayList<>();
  final List<AutoCloseable> peers = new ArrayList<>();
  final ByteArrayOutputStream serverLog = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    target = new Target(repo, repo.resolve(".prism-index"));
  }

  @AfterEach
  void tearDown() throws Exception {
    servers.forEach(ResidentServer::close);
    for (AutoCloseable p : peers) {
      p.close();
    }
  }

  private ResidentServer start(Duration idle) throws Exception {
    return start(idle, Duration.ZERO);
  }

  private ResidentServer start(Duration idle, Duration lockWait) throws Exception {
    ResidentServer s = ResidentServer.start(target, cli.environment(), idle,
        new PrintStream(serverLog, true, StandardCharsets.UTF_8), Harness.COMMANDS, lockWait);
    servers.add(s);
    return s;
  }

  private String log() {
    return serverLog.toString(StandardCharsets.UTF_8);
  }

  /**
   * A port file written by the test itself, as a server writes it (directory 0700, file 0600),
   * pointing at {@code port}.
   */
  private Path writePortFile(int port, String token, long pid) throws IOException {
    Path dir = ServeProtocol.dir(target.home());
    Files.createDirectories(dir,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path file = ServeProtocol.portFile(target.home());
    Files.deleteIfExists(file);
    Files.createFile(file,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, port + " " + token + " " + pid + "\n", StandardCharsets.US_ASCII);
    return file;
  }

  /** A loopback port nobody listens on (bound, then closed). */
  private static int deadPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** A listening loopback socket of the test's own, closed after the test. */
  private ServerSocket listen() throws IOException {
    ServerSocket s = new ServerSocket();
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    peers.add(s);
    return s;
  }

  /** The command through the client; empty when it would run in this process. */
  private OptionalInt served(Harness h, Result[] result, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    OptionalInt exit;
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = ServeClient.forward(args, h.environment(), o, e);
    }
    result[0] = new Result(exit.orElse(-1), out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
    return exit;
  }

  /** The command through a server that must answer. */
  private Result served(String... args) {
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
    try {
      Result[] r = new Result[1];
      OptionalInt exit = served(cli, r, args);
      assertThat(exit).as("served %s: %s", List.of(args), r[0]).isPresent();
      return r[0];
    } finally {
      cli.variables.remove(ServeProtocol.MODE_VARIABLE);
    }
  }

  /** With {@code PRISM_INDEX_SERVE=require}: exit 1 and why no server answered. */
  private Result requiredButNotServed(String... args) {
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
    try {
      Result[] r = new Result[1];
      assertThat(served(cli, r, args)).as("%s", r[0]).hasValue(ExitCode.FAILURE);
      assertThat(r[0].out()).isEmpty();
      assertThat(r[0].err()).startsWith("prism-index: no resident server answered for "
          + target.home() + ": ").endsWith(" (PRISM_INDEX_SERVE=require)\n");
      return r[0];
    } finally {
      cli.variables.remove(ServeProtocol.MODE_VARIABLE);
    }
  }

  private void assertIdentical(String... args) {
    Result local = cli.run(args);
    Result served = served(args);
    assertThat(served.exit()).as("exit of %s", List.of(args)).isEqualTo(local.exit());
    assertThat(WarmBackendTest.normalise(served.out())).as("stdout of %s", List.of(args))
        .isEqualTo(WarmBackendTest.normalise(local.out()));
    assertThat(WarmBackendTest.normalise(served.err())).as("stderr of %s", List.of(args))
        .isEqualTo(WarmBackendTest.normalise(local.err()));
  }

  /**
   * A raw request with every field chosen by the test (see {@link ServeProtocol}), sent in one
   * write as the clients do: field by field, a server that refuses after the token and closes
   * could break the pipe under the test's later fields.
   */
  private static void writeRawRequest(OutputStream out, String token, String code, Path home,
      Path cwd, String... args) throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    for (String f : List.of(ServeProtocol.MAGIC, token, code, home.toString(), cwd.toString(), "0",
        "0", "0", Integer.toString(args.length))) {
      ServeProtocol.writeField(request, f);
    }
    for (String a : args) {
      ServeProtocol.writeField(request, a);
    }
    request.writeTo(out);
    out.flush();
  }

  /** Connects to the running server of {@link #target} as its port file says. */
  private Socket connect() throws IOException {
    ServeClient.Endpoint at = ServeClient.endpoint(target.home());
    Socket s = new Socket(InetAddress.getLoopbackAddress(), at.port());
    s.setSoTimeout(60_000);
    return s;
  }

  private static String token(Path home) throws IOException {
    return ServeClient.endpoint(home).token();
  }

  @Test
  void outputIsIdenticalWithAndWithoutTheServer() throws Exception {
    start(Duration.ofMinutes(10));
    for (String mode : List.of("lexical", "semantic", "hybrid", "literal")) {
      assertIdentical("search", "parse duration", "--json", "--mode", mode);
      assertIdentical("search", "parse duration", "--mode", mode, "--limit", "2");
    }
    assertIdentical("search", "stale index check");
    assertIdentical("search", "snake", "--path", "tools", "--json");
    assertIdentical("search", "nothing matches zqxjkv", "--mode", "literal");
    assertIdentical("search", "\"$(touch x)\" `id` ; | & ü € 日本 \\ '", "--mode", "literal");
    assertIdentical("status");
    assertIdentical("status", "--json");
    // ... apart from the server that answered, which status names.
    assertThat(cli.run("status", "--json").out()).contains("\"server\":null");
    assertThat(served("status", "--json").out()).contains("\"server\":{\"kind\":\"serve\",\"pid\":"
        + ProcessHandle.current().pid());
    assertThat(served("status").out()).containsPattern("(?m)^server    serve, pid \\d+, started");
    // Usage errors (exit 2) come from the server too.
    assertIdentical("search", "parse", "--mode", "fuzzy");
    assertIdentical("search");
    assertIdentical("search", "parse", "--limit", "0");
    // A terminal with colour, and NO_COLOR.
    cli.stdoutTerminal = true;
    assertIdentical("search", "parseDuration", "--mode", "lexical");
    cli.variables.put("NO_COLOR", "1");
    assertIdentical("search", "parseDuration", "--mode", "lexical");
    cli.variables.remove("NO_COLOR");
    cli.stdoutTerminal = false;
    // From a sub-directory, with the repository found above it.
    Files.createDirectories(repo.resolve(".git"));
    cli.cwd = repo.resolve("src/main");
    assertIdentical("search", "formatDuration", "--json");
    assertIdentical("--repo", repo.toString(), "status", "--json");
  }

  /**
   * Issue 39: a file over the index's 1 MiB (within 8 MiB) is served to literal and regex searches
   * with its line numbers, as ripgrep finds it, never to ranked ones; the server catches up on it.
   */
  @Test
  void aFileOverOneMiBIsServedToExactSearchesOnly() throws Exception {
    StringBuilder big = new StringBuilder();
    for (int i = 1; i <= 15_000; i++) {
      big.append("filler ").append(i).append(' ').append("w".repeat(90)).append('\n');
    }
    big.append("the zqxLargeNeedle line\n");
    cli.write("data/big.txt", big.toString());
    start(Duration.ofMinutes(10));
    Result literal = served("search", "zqxLargeNeedle", "--mode", "literal", "--color=never");
    assertThat(literal.out()).isEqualTo("data/big.txt:15001:5:the zqxLargeNeedle line\n");
    Result regex = served("search", "-e", "zqxLarge[N]eedle l.ne$", "--color=never");
    assertThat(regex.out()).isEqualTo("data/big.txt:15001:5:the zqxLargeNeedle line\n");
    assertThat(served("search", "zqxLargeNeedle", "--mode", "lexical", "--json").json())
        .isEmpty();
    assertIdentical("search", "zqxLargeNeedle", "--mode", "literal", "--json");
    assertIdentical("search", "-e", "zqxLarge[N]eedle", "--json");
  }

  @Test
  void theGrepOptionsAndTheDefaultsAreServedAlike() throws Exception {
    cli.write("notes/lines.txt", "one\ntwo needle\nthree\nfour needle\nfive\n");
    cli.run("index");
    start(Duration.ofMinutes(10));
    assertIdentical("search", "needle", "--mode", "literal", "-C", "1");
    assertIdentical("search", "needle", "--mode", "literal", "-A", "2", "-B", "0", "--json");
    assertIdentical("search", "parse duration", "-t", "java", "--json");
    assertIdentical("search", "parse", "-g", "!src/", "-g", "*.py", "--mode", "lexical");
    assertIdentical("search", "snake duration", "--path", "tools", "--path", "README.md");
    assertIdentical("search", "needle", "--mode", "literal", "--limit", "1");
    assertIdentical("search", "--type-list");
    assertIdentical("search", "x", "-t", "pyton");
    assertIdentical("search", "x", "-g", "[abc");
    assertIdentical("search", "x", "-C", "99");
    assertIdentical("search", "--regex", "ne+dle$", "-C", "1");
    assertIdentical("search", "-e", "t[wh]o", "-e", "-dash", "-i", "-w", "--json");
    assertIdentical("search", "-F", "-S", "Needle");
    assertIdentical("search", "-e", "a(");
    // The repository's file and the variables are read for each request, as the client sees them.
    cli.write(".prism-index.toml", "[search]\nmode = \"literal\"\nlimit = 1\ncontext = 1\n");
    served("search", "x"); // the new file is indexed too: catch up before comparing
    assertIdentical("search", "needle");
    assertThat(served("search", "needle", "--json").json()).hasSize(1);
    cli.variables.put("PRISM_INDEX_LIMIT", "2");
    assertThat(served("search", "needle", "--json").json()).hasSize(2);
    assertIdentical("search", "needle", "--json");
    cli.variables.remove("PRISM_INDEX_LIMIT");
    Path home = Files.createDirectories(repo.resolve("../home-" + repo.getFileName()));
    Files.createDirectories(home.resolve(".config/prism-index"));
    Files.writeString(home.resolve(".config/prism-index/config.toml"), "[search]\ncontext = 0\n");
    cli.variables.put("HOME", home.toString());
    Files.delete(repo.resolve(".prism-index.toml"));
    assertThat(served("search", "needle", "--mode", "literal", "--json").json())
        .as("the user's file, through HOME").allSatisfy(h -> assertThat(h.has("before"))
            .isFalse());
    Files.writeString(home.resolve(".config/prism-index/config.toml"), "[search]\ncontext = 1\n");
    assertThat(served("search", "needle", "--mode", "literal", "--json").json())
        .allSatisfy(h -> assertThat(h.has("before")).isTrue());
    cli.variables.remove("HOME");
    cli.write(".prism-index.toml", "[search]\nlimit = zero\n");
    assertIdentical("search", "needle"); // a usage error before any catch-up
    assertThat(served("search", "needle").exit()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void theLauncherSendsTheVariablesTheServerReads() throws Exception {
    String launcher = Files.readString(Path.of("..", "scripts", "prism-index"));
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("for name in ([A-Z_ \\\\\n]+); do").matcher(launcher);
    assertThat(m.find()).as("the launcher's variable loop").isTrue();
    assertThat(List.of(m.group(1).replace("\\", " ").trim().split("\\s+")))
        .isEqualTo(ServeProtocol.VARIABLES);
    assertThat(ServeProtocol.VARIABLES).contains(SearchConfig.MODE_VARIABLE,
        SearchConfig.LIMIT_VARIABLE, SearchConfig.CONTEXT_VARIABLE)
        .containsAll(SearchConfig.LOCATION_VARIABLES);
  }

  @Test
  void catchesUpOnChangesLikeTheInProcessCommand() throws Exception {
    start(Duration.ofMinutes(10));
    assertThat(served("search", "parse", "--json").exit()).isZero();
    cli.write("src/main/java/demo/Quartz.java", "package demo;\n\n/** A quartz oscillator. */\n"
        + "final class Quartz {}\n");
    Result r = served("search", "quartz oscillator", "--json", "--mode", "lexical");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json().get(0).get("path").asText()).isEqualTo("src/main/java/demo/Quartz.java");
    assertIdentical("search", "quartz oscillator", "--mode", "hybrid");
    Files.delete(repo.resolve("src/main/java/demo/Quartz.java"));
    Result gone = served("search", "quartz oscillator", "--json", "--mode", "lexical");
    assertThat(gone.out()).doesNotContain("Quartz.java");
    assertIdentical("search", "quartz oscillator", "--json", "--mode", "lexical");
  }

  @Test
  void concurrentClientsGetCorrectIdenticalResults() throws Exception {
    start(Duration.ofMinutes(10));
    List<String[]> commands = List.of(
        new String[] {"search", "parse duration", "--json", "--mode", "hybrid"},
        new String[] {"search", "parse duration", "--json", "--mode", "lexical"},
        new String[] {"search", "Long.parseLong", "--json", "--mode", "literal"},
        new String[] {"search", "stale", "--mode", "semantic"});
    List<Result> expected = new ArrayList<>();
    for (String[] c : commands) {
      Result r = cli.run(c);
      assertThat(r.exit()).as(r.toString()).isZero();
      expected.add(r);
    }
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> clients = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        int offset = t;
        clients.add(pool.submit(() -> {
          Harness h = new Harness(repo);
          h.model = cli.model;
          h.variables.put(ServeProtocol.MODE_VARIABLE, "require");
          for (int i = 0; i < 8; i++) {
            int k = (i + offset) % commands.size();
            Result[] r = new Result[1];
            assertThat(served(h, r, commands.get(k))).as("%s", r[0]).isPresent();
            assertThat(r[0].exit()).isZero();
            assertThat(WarmBackendTest.normalise(r[0].out()))
                .isEqualTo(WarmBackendTest.normalise(expected.get(k).out()));
            assertThat(WarmBackendTest.normalise(r[0].err()))
                .isEqualTo(WarmBackendTest.normalise(expected.get(k).err()));
          }
          return null;
        }));
      }
      for (Future<?> f : clients) {
        f.get(4, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void oneServerPerIndex() throws Exception {
    ResidentServer first = start(Duration.ofMinutes(10));
    assertThatThrownBy(() -> start(Duration.ofMinutes(10)))
        .isInstanceOf(CliFailure.class)
        .hasMessage("a server is already running for " + repo + " (see " + first.portFile()
            + ")");
    assertThat(first.isStopped()).isFalse();
    assertThat(served("status", "--json").exit()).isZero();
    // Through the command line: exit 1 and one line on stderr.
    Result r = cli.run("serve", "--idle-timeout", "1s");
    assertThat(r.exit()).isEqualTo(ExitCode.FAILURE);
    assertThat(r.err()).startsWith("prism-index serve: a server is already running for ");
    // Started in the background (by a client), it waits a little for the lock, then ends
    // quietly: the running server is the one clients use.
    Result background = cli.run("serve", "--background");
    assertThat(background.exit()).as(background.toString()).isZero();
    assertThat(background.err()).isEqualTo("prism-index serve: a server is already running for "
        + repo + " (see " + first.portFile() + "); this one is not needed\n");
    assertThat(first.isStopped()).isFalse();
    assertThat(served("status", "--json").exit()).isZero();
  }

  @Test
  void aServerStartedInTheBackgroundWaitsForTheLockOfOneThatIsStopping() throws Exception {
    ResidentServer first = start(Duration.ofMinutes(10));
    CompletableFuture<ResidentServer> second = CompletableFuture.supplyAsync(() -> {
      try {
        return start(Duration.ofMinutes(10), Duration.ofMinutes(2));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    first.close();
    ResidentServer next = second.get(3, TimeUnit.MINUTES);
    assertThat(next.isStopped()).isFalse();
    assertIdentical("search", "parse", "--json");
  }

  @Test
  void thePortFileOfADeadServerFallsBackAndIsReplacedByTheNextServer() throws Exception {
    // What a killed server leaves: a port file naming a port nobody listens on (the lock died
    // with it).
    Path file = writePortFile(deadPort(), "a".repeat(64), Long.MAX_VALUE);
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    assertThat(r[0].out()).isEmpty();
    assertThat(r[0].err()).isEmpty();
    assertThat(requiredButNotServed("search", "parse", "--json").err())
        .contains("no server listening on port ");

    ResidentServer s = start(Duration.ofMinutes(10));
    assertThat(log()).contains("prism-index serve: removed the port file of a server that did not"
        + " stop (" + file + ")");
    assertThat(s.portFile()).isEqualTo(file);
    assertThat(ServeClient.endpoint(target.home()).pid()).isEqualTo(ProcessHandle.current().pid());
    assertIdentical("search", "parse", "--json");
  }

  @Test
  void withoutAPortFileTheCommandRunsInThisProcess() {
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    assertThat(r[0].out()).isEmpty();
    assertThat(r[0].err()).isEmpty();
    assertThat(requiredButNotServed("status").err()).contains("no server (no port file)");
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "0");
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    assertThat(r[0].err()).isEmpty();
  }

  @Test
  void anUnreadablePortFileIsPassedOver() throws Exception {
    Path file = writePortFile(1, "t", 1);
    Files.writeString(file, "not a port file\n", StandardCharsets.US_ASCII);
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    assertThat(requiredButNotServed("search", "parse").err()).contains("unreadable " + file);
  }

  @Test
  void stopsWhenIdleAndRemovesItsPortFile() throws Exception {
    ResidentServer s = start(Duration.ofSeconds(1));
    s.await();
    assertThat(log()).contains("stopped (idle for 1s)");
    assertThat(s.portFile()).doesNotExist();
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    // The lock is free again.
    start(Duration.ofMinutes(10));
    assertIdentical("search", "parse", "--json");
  }

  @Test
  void servesARepositoryWithoutAnIndexAndStaysOutOfGitStatus() throws Exception {
    Path bare = Files.createDirectories(repo.resolve("other"));
    Files.writeString(bare.resolve("a.txt"), "alpha\n", StandardCharsets.UTF_8);
    Target t = new Target(bare, bare.resolve(".prism-index"));
    Harness h = new Harness(bare);
    h.model = cli.model;
    try (ResidentServer s = ResidentServer.start(t, h.environment(), Duration.ofMinutes(10),
        new PrintStream(serverLog, true, StandardCharsets.UTF_8), Harness.COMMANDS,
        Duration.ZERO)) {
      assertThat(s.portFile().getParent().resolve(".gitignore")).hasContent("*");
      Result local = h.run("search", "alpha", "--json");
      h.variables.put(ServeProtocol.MODE_VARIABLE, "require");
      Result[] r = new Result[1];
      assertThat(served(h, r, "search", "alpha", "--json")).hasValue(ExitCode.INDEX);
      assertThat(r[0].err()).isEqualTo(local.err()).contains("no index at");
      // Indexed by another process meanwhile: the server opens it at the next request.
      h.backends = LocalBackend::new;
      assertThat(h.run("index").exit()).isZero();
      assertThat(served(h, r, "search", "alpha", "--json", "--mode", "lexical")).hasValue(0);
      assertThat(r[0].out()).contains("\"path\":\"a.txt\"");
    }
  }

  @Test
  void stopsWhenItsPortFileIsRemoved() throws Exception {
    ResidentServer s = start(Duration.ZERO);
    Files.delete(s.portFile());
    s.await();
    assertThat(log()).contains("was removed");
  }

  @Test
  void portFileAndDirectoryAreTheOwnersOnly() throws Exception {
    Path dir = ServeProtocol.dir(target.home());
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    ResidentServer s = start(Duration.ofMinutes(10));
    assertThat(s.portFile()).isEqualTo(ServeProtocol.portFile(target.home()));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(s.portFile(),
        LinkOption.NOFOLLOW_LINKS))).isEqualTo("rw-------");
    // <port> <token> <pid>: a 256-bit token in hex, this process.
    ServeClient.Endpoint at = ServeClient.endpoint(target.home());
    assertThat(at.token()).matches("[0-9a-f]{64}");
    assertThat(at.pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(Files.readString(s.portFile())).isEqualTo(at.port() + " " + at.token() + " "
        + at.pid() + "\n");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
    assertThat(ServeClient.unsafe(s.portFile())).isNull();
    // A directory others may enter is not trusted by the client.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(ServeClient.unsafe(s.portFile())).isEqualTo(dir + " is open to other users");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x---"));
    assertThat(ServeClient.unsafe(s.portFile())).isEqualTo(dir + " is open to other users");
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse")).isEmpty();
    assertThat(requiredButNotServed("search", "parse").err()).contains("open to other users");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    assertThat(served(cli, r, "search", "parse")).isPresent();
    // A symbolic link in place of the port file is not trusted. (Each swap is one rename: the
    // server stops when its port file is gone, even for a moment.)
    Path real = Files.copy(s.portFile(), dir.resolve("elsewhere"),
        StandardCopyOption.COPY_ATTRIBUTES);
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    Files.move(link, s.portFile(), StandardCopyOption.ATOMIC_MOVE);
    assertThat(Files.isSymbolicLink(s.portFile())).isTrue();
    assertThat(ServeClient.unsafe(s.portFile())).contains("belongs to another user");
    assertThat(served(cli, r, "search", "parse")).isEmpty();
    Files.move(real, s.portFile(), StandardCopyOption.ATOMIC_MOVE);
    assertThat(served(cli, r, "search", "parse")).isPresent();
  }

  @Test
  void aWrongTokenIsRefusedAndTheServerKeepsServing() throws Exception {
    ResidentServer s = start(Duration.ofMinutes(10));
    String right = Files.readString(s.portFile(), StandardCharsets.US_ASCII);
    ServeClient.Endpoint at = ServeClient.endpoint(target.home());
    String wrong = (at.token().charAt(0) == '0' ? "1" : "0") + at.token().substring(1);
    // Rewritten in place: the same file, owner and mode, another token.
    Files.writeString(s.portFile(), at.port() + " " + wrong + " " + at.pid() + "\n",
        StandardCharsets.US_ASCII);
    ServeClient.Answer a = ask(target, new String[] {"search", "parse"},
        cli.environment(), ServeClient.HELLO_TIMEOUT_MS);
    assertThat(a.exit()).isNull();
    assertThat(a.why()).isEqualTo("refused: wrong token");
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    assertThat(r[0].out()).isEmpty();
    assertThat(requiredButNotServed("search", "parse").err()).contains("refused: wrong token");
    // A shorter or empty token, and one that is the right one's prefix, are refused the same way.
    for (String t : List.of("", at.token().substring(0, 10), at.token() + "0")) {
      Files.writeString(s.portFile(), at.port() + " " + (t.isEmpty() ? "-" : t) + " " + at.pid()
          + "\n", StandardCharsets.US_ASCII);
      try (Socket c = connect()) {
        writeRawRequest(c.getOutputStream(), t, ServeProtocol.code().toString(), target.home(),
            repo, "search", "parse");
        assertThat(ServeProtocol.readLine(c.getInputStream()))
            .isEqualTo(ServeProtocol.MAGIC + " refused 0 11 0");
        assertThat(new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("wrong token");
      }
    }
    assertThat(s.isStopping()).isFalse();
    Files.writeString(s.portFile(), right, StandardCharsets.US_ASCII);
    assertIdentical("search", "parse", "--json");
  }

  /**
   * Issue 41, item 1: strangers (no token) cannot stall the server. 200 connections that send
   * nothing and 8 that send one byte a second (each one closed is opened again, as an attacker
   * would): the owner's searches are answered all the same, identical to the in-process command;
   * every stranger's connection is closed within a few seconds (its budget is {@value
   * ConnectionGate#PROOF_BUDGET_MS} ms; the bound here is loose: how fast is the benchmark's
   * business, ServeFloodLatency); the server's threads stay bounded.
   */
  @Test
  void strangersWithoutTheTokenCannotStallTheServer() throws Exception {
    start(Duration.ofMinutes(10));
    Result expected = cli.run("search", "parse", "--json");
    assertThat(expected.exit()).as(expected.toString()).isZero();
    int port = ServeClient.endpoint(target.home()).port();
    InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    AtomicBoolean flooding = new AtomicBoolean(true);
    List<Long> slowLifetimesMs = java.util.Collections.synchronizedList(new ArrayList<>());
    ExecutorService slow = Executors.newFixedThreadPool(8);
    List<Socket> idle = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        slow.submit(() -> {
          byte[] magic = ServeProtocol.MAGIC.getBytes(StandardCharsets.US_ASCII);
          while (flooding.get()) {
            try (Socket c = new Socket()) {
              c.connect(at, 5_000);
              long opened = System.nanoTime();
              c.setSoTimeout(1_000);
              InputStream in = c.getInputStream();
              for (int b = 0; flooding.get(); b++) {
                c.getOutputStream().write(magic[b % magic.length]);
                try {
                  if (in.read() < 0) {
                    break;
                  }
                } catch (java.net.SocketTimeoutException e) {
                  continue; // a second went by: the next byte
                }
              }
              if (flooding.get()) {
                slowLifetimesMs.add((System.nanoTime() - opened) / 1_000_000);
              }
            } catch (IOException e) {
              // reset by the server: the connection was closed, open the next one
            }
          }
          return null;
        });
      }
      long[] openedAt = new long[200];
      for (int i = 0; i < 200; i++) {
        Socket c = new Socket();
        c.connect(at, 5_000);
        openedAt[i] = System.nanoTime();
        idle.add(c);
      }
      Thread.sleep(300); // the slow ones are in
      for (int round = 0; round < 3; round++) {
        Result served = served("search", "parse", "--json");
        assertThat(served.exit()).as(served.toString()).isZero();
        assertThat(served.out()).isEqualTo(expected.out());
        assertThat(served.err()).isEqualTo(expected.err());
      }
      // Every idle stranger is closed by the server, each within a few seconds of connecting.
      for (int i = 0; i < idle.size(); i++) {
        Socket c = idle.get(i);
        long left = 5_000 - (System.nanoTime() - openedAt[i]) / 1_000_000;
        c.setSoTimeout((int) Math.max(1, left));
        try {
          assertThat(c.getInputStream().read()).as("idle connection %d", i).isEqualTo(-1);
        } catch (java.net.SocketTimeoutException e) {
          throw new AssertionError("idle connection " + i + " still open after 5 s", e);
        } catch (IOException e) {
          // reset: closed too
        }
      }
      long serving = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().startsWith("prism-index-serve")).count();
      assertThat(serving).as("server threads").isLessThanOrEqualTo(16);
      Thread.sleep(3_000); // a few slow-loris rounds
      flooding.set(false);
      assertThat(slowLifetimesMs).as("slow connections closed by the server").isNotEmpty();
      assertThat(slowLifetimesMs).as("lifetimes of slow connections (ms)")
          .allMatch(ms -> ms < 5_000);
    } finally {
      flooding.set(false);
      slow.shutdownNow();
      for (Socket c : idle) {
        c.close();
      }
    }
    assertIdentical("search", "parse", "--json");
  }

  /**
   * Issue 41, item 7: {@code serve} on an index it cannot write (read-only, or a full disk) said
   * only the exception ({@code error: IOException: No space left on device}); it names the
   * directory and what to do. Root makes the home read-only with a bind mount and fills a small
   * tmpfs; anyone else gets the read-only case by permissions, and the full disk is skipped.
   */
  @Test
  void serveOnAnIndexItCannotWriteNamesThePathAndWhatToDo(@TempDir Path full) throws Exception {
    Path home = target.home();
    boolean root = "root".equals(System.getProperty("user.name"));
    boolean mounted = root && run("mount", "--bind", "-o", "ro", home.toString(), home.toString());
    if (!root) {
      Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    try {
      if (mounted || !Files.isWritable(home)) {
        Result r = cli.run("serve", "--idle-timeout", "1s");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.FAILURE);
        assertThat(r.err()).isEqualTo("prism-index serve: cannot write the server's files in "
            + home.resolve("serve") + " (" + (mounted ? "Read-only file system"
            : "Permission denied") + "): a server needs a writable index directory (--index-dir"
            + " DIR); searches answer without one\n");
      }
    } finally {
      if (mounted) {
        assertThat(run("umount", home.toString())).isTrue();
      } else if (!root) {
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
    }
    if (!root || !run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", full.toString())) {
      return;
    }
    try {
      Path copy = full.resolve("index");
      assertThat(cli.run("--index-dir", copy.toString(), "index").exit()).isZero();
      byte[] block = new byte[4096];
      try (OutputStream filler = Files.newOutputStream(full.resolve("filler"))) {
        while (true) {
          filler.write(block);
        }
      } catch (IOException e) {
        // the disk is full: what is tested
      }
      Result r = cli.run("--index-dir", copy.toString(), "serve", "--idle-timeout", "1s");
      assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.FAILURE);
      assertThat(r.err()).isEqualTo("prism-index serve: cannot write the server's files in "
          + copy.resolve("serve") + " (No space left on device): free some space and run it"
          + " again; searches answer without a server\n");
    } finally {
      assertThat(run("umount", full.toString())).isTrue();
    }
  }

  private static boolean run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor() == 0;
  }

  @Test
  void aConnectionThatIsNotAPrismIndexClientIsRefused() throws Exception {
    ResidentServer s = start(Duration.ofMinutes(10));
    try (Socket c = connect()) {
      c.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n\0"
          .getBytes(StandardCharsets.US_ASCII));
      c.getOutputStream().flush();
      InputStream in = c.getInputStream();
      String reason = "not a " + ServeProtocol.MAGIC + " client";
      assertThat(ServeProtocol.readLine(in)).isEqualTo(ServeProtocol.MAGIC + " refused 0 "
          + reason.length() + " 0");
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(reason);
    }
    // A client that connects and goes away without a word does not upset it either.
    new Socket(InetAddress.getLoopbackAddress(), ServeClient.endpoint(target.home()).port())
        .close();
    assertThat(s.isStopping()).isFalse();
    assertIdentical("status", "--json");
  }

  @Test
  void aPeerThatIsNotAPrismIndexServerIsPassedOver() throws Exception {
    // Whatever listens on the port now (the port of a dead server reused by another program):
    // it answers garbage, an older protocol, or a line without end.
    List<byte[]> answers = List.of(
        "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
        "prism-index-serve/1 hello\n".getBytes(StandardCharsets.US_ASCII),
        (ServeProtocol.MAGIC + " answer x y z\n").getBytes(StandardCharsets.US_ASCII),
        "x".repeat(10_000).getBytes(StandardCharsets.US_ASCII),
        new byte[0]);
    for (byte[] answer : answers) {
      ServerSocket peer = listen();
      writePortFile(peer.getLocalPort(), "b".repeat(64), Long.MAX_VALUE);
      CompletableFuture<Void> served = CompletableFuture.runAsync(() -> answerAndDrain(peer,
          answer));
      Result[] r = new Result[1];
      // The client gives up on it and the command runs in this process, printing nothing here.
      assertThat(served(cli, r, "search", "parse", "--json")).as(new String(answer,
          StandardCharsets.US_ASCII)).isEmpty();
      assertThat(r[0].out()).isEmpty();
      assertThat(r[0].err()).isEmpty();
      served.get(1, TimeUnit.MINUTES);
    }
    ServerSocket peer = listen();
    writePortFile(peer.getLocalPort(), "b".repeat(64), Long.MAX_VALUE);
    CompletableFuture.runAsync(() -> answerAndDrain(peer,
        "HTTP/1.1 400 Bad Request\r\n".getBytes(StandardCharsets.US_ASCII)));
    assertThatThrownBy(() -> ask(target, new String[] {"search", "x"},
        cli.environment(), ServeClient.HELLO_TIMEOUT_MS))
        .isInstanceOf(IOException.class)
        .hasMessage("not a " + ServeProtocol.MAGIC + " server");
  }

  /** {@link ServeClient#ask}, printing what is answered nowhere. */
  private static ServeClient.Answer ask(Target target, String[] args,
      dev.prismindex.cli.command.Environment env, int helloTimeoutMs) throws IOException {
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true,
        StandardCharsets.UTF_8);
    return ServeClient.ask(target, args, env, helloTimeoutMs, nowhere, nowhere);
  }

  /** A peer's answer: hello, then the given frames, as {@link ServeConnection.Stream} writes them. */
  private static byte[] frames(String... lines) {
    StringBuilder b = new StringBuilder(ServeProtocol.MAGIC + " hello\n");
    for (String l : lines) {
      b.append(l);
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void anErrorAfterSomeHitsKeepsTheOrderAndTheExitCode() throws Exception {
    // Hits, then an error on stderr, more hits, then exit code 2: printed as the command wrote
    // them, hits once, the exit code from the end.
    ServerSocket peer = listen();
    writePortFile(peer.getLocalPort(), "d".repeat(64), Long.MAX_VALUE);
    CompletableFuture<Void> served = CompletableFuture.runAsync(() -> answerAndDrain(peer,
        frames(ServeProtocol.MAGIC + " out 4\na:1\n", ServeProtocol.MAGIC + " err 5\nboom\n",
            ServeProtocol.MAGIC + " end 2 5\nbad!\nb:2\n")));
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "x")).hasValue(2);
    assertThat(r[0].out()).isEqualTo("a:1\nb:2\n");
    assertThat(r[0].err()).isEqualTo("boom\nbad!\n");
    served.get(1, TimeUnit.MINUTES);
  }

  @Test
  void anAnswerBrokenOffAfterSomeHitsIsAnErrorNotARerun() throws Exception {
    // The server dies after a frame of hits: they stay printed once (not run again here), the
    // client says the answer was cut and exits 1.
    ServerSocket peer = listen();
    writePortFile(peer.getLocalPort(), "e".repeat(64), 4242);
    CompletableFuture<Void> served = CompletableFuture.runAsync(() -> answerAndDrain(peer,
        frames(ServeProtocol.MAGIC + " out 4\na:1\n", ServeProtocol.MAGIC + " out 9\nb:")));
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "x")).hasValue(ExitCode.FAILURE);
    assertThat(r[0].out()).isEqualTo("a:1\n");
    assertThat(r[0].err()).isEqualTo("prism-index: the resident server of " + target.home()
        + " (pid 4242) broke off its answer (the server closed the connection)\n");
    served.get(1, TimeUnit.MINUTES);
    // Cut before anything was printed: the command runs in this process instead.
    ServerSocket quiet = listen();
    writePortFile(quiet.getLocalPort(), "e".repeat(64), 4242);
    CompletableFuture<Void> cut = CompletableFuture.runAsync(() -> answerAndDrain(quiet,
        frames(ServeProtocol.MAGIC + " out 9\nb:")));
    assertThat(served(cli, r, "search", "x")).isEmpty();
    assertThat(r[0].out()).isEmpty();
    assertThat(r[0].err()).isEmpty();
    cut.get(1, TimeUnit.MINUTES);
  }

  @Test
  void aStreamSendsStdoutBeforeTheCommandEnds() throws Exception {
    ByteArrayOutputStream client = new ByteArrayOutputStream();
    ServeConnection.Stream stream = new ServeConnection.Stream(client);
    OutputStream out = stream.stdout();
    byte[] hits = "h:1:1:x\n".repeat(ServeConnection.Stream.CHUNK / 8 + 1)
        .getBytes(StandardCharsets.US_ASCII);
    out.write(hits, 0, 16);
    out.flush();
    // A small start waits (one frame for a small answer)...
    assertThat(client.size()).isZero();
    out.write(hits, 16, hits.length - 16);
    // ... a chunk's worth goes out while the command still runs, one frame of exactly a chunk.
    int chunk = ServeConnection.Stream.CHUNK;
    String head = ServeProtocol.MAGIC + " out " + chunk + "\n";
    assertThat(client.toString(StandardCharsets.US_ASCII)).startsWith(head)
        .hasSize(head.length() + chunk);
    stream.stderr().write("note\n".getBytes(StandardCharsets.US_ASCII));
    out.write("t:2:1:y\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(stream.end(1)).isTrue();
    String text = new String(hits, StandardCharsets.US_ASCII);
    assertThat(client.toString(StandardCharsets.US_ASCII)).isEqualTo(head
        + text.substring(0, chunk) + ServeProtocol.MAGIC + " out " + (hits.length - chunk) + "\n"
        + text.substring(chunk) + ServeProtocol.MAGIC + " err 5\nnote\n"
        + ServeProtocol.MAGIC + " end 1 0\nt:2:1:y\n");
    // Stderr after pending stdout goes after it: at the end, in the end line's part.
    client.reset();
    ServeConnection.Stream small = new ServeConnection.Stream(client);
    small.stdout().write("a:1\n".getBytes(StandardCharsets.US_ASCII));
    small.stderr().write("late\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(client.size()).isZero();
    assertThat(small.end(2)).isTrue();
    assertThat(client.toString(StandardCharsets.US_ASCII))
        .isEqualTo(ServeProtocol.MAGIC + " end 2 5\nlate\na:1\n");
  }

  @Test
  void theNextAnswersBufferHoldsNothingOfTheLastOnes() throws Exception {
    // Pending stdout sits in pooled buffers: answers after a long one, a discarded one and one
    // whose client went away send only their own bytes.
    ByteArrayOutputStream client = new ByteArrayOutputStream();
    ServeConnection.Stream big = new ServeConnection.Stream(client);
    big.stdout().write("A".repeat(ServeConnection.Stream.CHUNK + 100)
        .getBytes(StandardCharsets.US_ASCII));
    assertThat(big.end(0)).isTrue();
    ServeConnection.Stream discarded = new ServeConnection.Stream(OutputStream.nullOutputStream());
    discarded.stdout().write("B".repeat(5000).getBytes(StandardCharsets.US_ASCII));
    assertThat(discarded.end(0)).isTrue();
    ServeConnection.Stream broken = new ServeConnection.Stream(new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    });
    broken.stdout().write("D".repeat(ServeConnection.Stream.CHUNK - 1)
        .getBytes(StandardCharsets.US_ASCII));
    assertThat(broken.end(0)).isFalse();
    for (int i = 0; i < 6; i++) {
      client.reset();
      ServeConnection.Stream next = new ServeConnection.Stream(client);
      next.stdout().write(("c:" + i + "\n").getBytes(StandardCharsets.US_ASCII));
      assertThat(next.end(0)).isTrue();
      assertThat(client.toString(StandardCharsets.US_ASCII))
          .isEqualTo(ServeProtocol.MAGIC + " end 0 0\nc:" + i + "\n");
    }
    client.reset();
    ServeConnection.Stream empty = new ServeConnection.Stream(client);
    assertThat(empty.end(3)).isTrue();
    assertThat(client.toString(StandardCharsets.US_ASCII))
        .isEqualTo(ServeProtocol.MAGIC + " end 3 0\n");
  }

  @Test
  void aStreamWhoseClientWentAwayFailsEveryLaterWrite() throws Exception {
    OutputStream gone = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    };
    ServeConnection.Stream stream = new ServeConnection.Stream(gone);
    PrintStream out = new PrintStream(stream.stdout(), false, StandardCharsets.UTF_8);
    out.write(new byte[ServeConnection.Stream.CHUNK]);
    // The command's printers see the error and stop, as when a reader closes stdout.
    assertThat(out.checkError()).isTrue();
    assertThatThrownBy(() -> stream.stderr().write(1)).isInstanceOf(IOException.class);
    assertThat(stream.end(0)).isFalse();
  }

  /**
   * Accepts one connection, writes {@code answer}, then reads what the client sent until it
   * closes (so that the client reads the whole answer rather than a reset).
   */
  private static void answerAndDrain(ServerSocket peer, byte[] answer) {
    try (Socket c = peer.accept()) {
      c.setSoTimeout(60_000);
      c.getOutputStream().write(answer);
      c.getOutputStream().flush();
      c.shutdownOutput();
      c.getInputStream().readAllBytes();
    } catch (IOException e) {
      // the client went away first: nothing to check here
    }
  }

  @Test
  void aServerThatSaysNoHelloIsPassedOverWithinTheHelloTimeout() throws Exception {
    // Accepts and reads, never writes: a stopped, wedged or foreign server.
    ServerSocket stuck = listen();
    writePortFile(stuck.getLocalPort(), "c".repeat(64), Long.MAX_VALUE);
    List<Socket> held = new ArrayList<>();
    Thread acceptor = new Thread(() -> {
      try {
        while (true) {
          Socket c = stuck.accept();
          synchronized (held) {
            held.add(c);
          }
        }
      } catch (IOException e) {
        // closed at the end of the test
      }
    });
    acceptor.setDaemon(true);
    acceptor.start();
    try {
      ServeClient.Answer a = ask(target, new String[] {"search", "x"},
          cli.environment(), 200);
      assertThat(a.exit()).isNull();
      assertThat(a.stalled()).isTrue();
      String why = "no hello within 2000 ms: the server (pid " + Long.MAX_VALUE + ") is stalled";
      assertThat(a.why()).isEqualTo(why.replace("2000", "200"));
      // The command itself waits ServeClient.HELLO_TIMEOUT_MS, says so, then runs in this
      // process.
      Result[] r = new Result[1];
      assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
      assertThat(r[0].out()).isEmpty();
      assertThat(r[0].err()).isEqualTo("prism-index: the resident server of " + target.home()
          + " did not answer (" + why + "); running the command in this process\n");
      // Required, it fails as soon (issue 41: it waited without end).
      assertThat(requiredButNotServed("search", "parse").err()).contains(why);
    } finally {
      stuck.close();
      synchronized (held) {
        for (Socket c : held) {
          c.close();
        }
      }
    }
  }

  @Test
  void debugRunsInProcessAndOtherCommandsAreRefused() throws Exception {
    ResidentServer s = start(Duration.ofMinutes(10));
    for (String[] args : List.of(new String[0], new String[] {"index"},
        new String[] {"search", "parse", "--debug"}, new String[] {"serve"},
        new String[] {"mcp"})) {
      ServeClient.Answer probe = ask(target, args, cli.environment(),
          ServeClient.HELLO_TIMEOUT_MS);
      assertThat(probe.exit()).as(List.of(args).toString()).isNull();
      assertThat(probe.why()).isEqualTo("refused: only search, status (without --debug) and serve"
          + " --stop are served");
    }
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--debug")).isEmpty();
    assertThat(r[0].out()).isEmpty();
    // The server still answers after those connections.
    assertThat(s.isStopping()).isFalse();
    assertThat(served(cli, r, "search", "parse")).hasValue(0);
  }

  @Test
  void aRequestForAnotherIndexIsRefusedAndTheServerKeepsServing() throws Exception {
    ResidentServer s = start(Duration.ofMinutes(10));
    try (Socket c = connect()) {
      writeRawRequest(c.getOutputStream(), token(target.home()), ServeProtocol.code().toString(),
          repo.resolve("elsewhere/.prism-index"), repo, "search", "parse");
      InputStream in = c.getInputStream();
      assertThat(ServeProtocol.readLine(in)).isEqualTo(ServeProtocol.MAGIC + " hello");
      String reason = "this server answers for " + target.home();
      assertThat(ServeProtocol.readLine(in)).isEqualTo(ServeProtocol.MAGIC + " refused 0 "
          + reason.getBytes(StandardCharsets.UTF_8).length + " 0");
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(reason);
    }
    assertThat(s.isStopping()).isFalse();
    assertIdentical("search", "parse");
  }

  @Test
  void aClientOfOtherCodeIsRefusedAndTheServerStopsItself() throws Exception {
    ResidentServer s = start(Duration.ofMinutes(10));
    String other = repo.resolve("another-build/prism-index.jar").toString();
    try (Socket c = connect()) {
      writeRawRequest(c.getOutputStream(), token(target.home()), other, target.home(), repo,
          "search", "parse", "--json");
      InputStream in = c.getInputStream();
      assertThat(ServeProtocol.readLine(in)).isEqualTo(ServeProtocol.MAGIC + " hello");
      String reason = "this server runs " + ServeProtocol.code() + ", the client " + other;
      assertThat(ServeProtocol.readLine(in)).isEqualTo(ServeProtocol.MAGIC + " refused 0 "
          + reason.getBytes(StandardCharsets.UTF_8).length + " 0");
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(reason);
    }
    // It stops (a newer server is to be started by that client) and removes its port file.
    s.await();
    assertThat(log()).contains("prism-index serve: stopped (" + "this server runs "
        + ServeProtocol.code() + ", the client " + other + ")");
    assertThat(s.portFile()).doesNotExist();
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    // The lock is free: the next server starts.
    start(Duration.ofMinutes(10));
    assertIdentical("search", "parse", "--json");
  }

  /**
   * Issue 41, item 7: a search took 15.4 s while {@code serve --stop} ran. Why: a request queued
   * behind busy workers when the server began to stop waited for them, got no hello within the
   * client's 10 s (the hello came from a worker), and then ran in-process, loading everything
   * itself. Now the requests still queued when the server stops are refused at once ("the server
   * is stopping"), while the ones running finish; their clients run the command in-process at
   * once. Here 8 requests hold every worker until the test lets them go, and a 9th waits.
   */
  @Test
  void requestsQueuedWhenTheServerStopsAreRefusedAtOnce() throws Exception {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(8);
    ResidentServer.CommandRunner holding = (args, out, err, env, backend) -> {
      if (List.of(args).contains("slowpoke")) {
        running.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Harness.COMMANDS.run(args, out, err, env, backend);
    };
    ResidentServer s = ResidentServer.start(target, cli.environment(), Duration.ofMinutes(10),
        new PrintStream(serverLog, true, StandardCharsets.UTF_8), holding, Duration.ZERO);
    servers.add(s);
    ExecutorService clients = Executors.newFixedThreadPool(9);
    try {
      List<Future<ServeClient.Answer>> held = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        held.add(clients.submit(() -> ask(target,
            new String[] {"search", "slowpoke", "--json"}, cli.environment(), 0)));
      }
      assertThat(running.await(2, TimeUnit.MINUTES)).as("every worker is busy").isTrue();
      Future<ServeClient.Answer> queued = clients.submit(() -> ask(target,
          new String[] {"search", "parse", "--json"}, cli.environment(), 0));
      Thread.sleep(500); // it is in the queue
      s.stopSoon("asked to stop");
      ServeClient.Answer refused = queued.get(1, TimeUnit.MINUTES);
      assertThat(refused.exit()).isNull();
      assertThat(refused.why()).isEqualTo("refused: the server is stopping");
      assertThat(s.isStopped()).as("the running requests are finished first").isFalse();
      release.countDown();
      for (Future<ServeClient.Answer> f : held) {
        assertThat(f.get(1, TimeUnit.MINUTES).exit()).as("a running request is answered")
            .isNotNull();
      }
      s.await();
    } finally {
      release.countDown();
      clients.shutdownNow();
    }
  }

  @Test
  void serveStopStopsTheServer() throws Exception {
    ResidentServer s = start(Duration.ZERO);
    String said = ServeClient.stop(target, cli.environment());
    assertThat(said).isEqualTo("prism-index serve: stopping the server of " + repo + " (pid "
        + ProcessHandle.current().pid() + ")");
    s.await();
    assertThat(log()).contains("prism-index serve: stopped (asked to stop)");
    assertThat(s.portFile()).doesNotExist();
    assertThat(ServeClient.stop(target, cli.environment())).isEqualTo("prism-index serve: no"
        + " server answers for " + repo + " (no server (no port file))");

    // Through the command line: one line on stderr, exit 0, whether a server ran or not.
    ResidentServer again = start(Duration.ZERO);
    Result r = cli.run("serve", "--stop");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("prism-index serve: stopping the server of " + repo + " (pid "
        + ProcessHandle.current().pid() + ")\n");
    again.await();
    Result none = cli.run("serve", "--stop");
    assertThat(none.exit()).isZero();
    assertThat(none.err()).startsWith("prism-index serve: no server answers for " + repo);
  }

  @Test
  void aClosedStdoutEndsTheServedCommandWithExitZeroAndNothingMoreOnStderr() throws Exception {
    // A file left out of the index: a literal search notes it on stderr, before its hits in
    // human output, after them in NDJSON.
    Files.write(repo.resolve("blob.bin"), new byte[] {'p', 'a', 'r', 's', 'e', 0, 1, 2});
    assertThat(cli.run("index").exit()).isZero();
    start(Duration.ofMinutes(10));
    String note = "note: not searched: 1 file left out of the index (binary 1); see docs/cli.md\n";
    PrintStream closed = new PrintStream(new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    }, false, StandardCharsets.UTF_8);
    for (String[] args : List.of(new String[] {"search", "parse", "--mode", "literal"},
        new String[] {"search", "parse", "--mode", "literal", "--json"})) {
      assertThat(served(args).err()).isEqualTo(note);
      assertIdentical(args);
      ByteArrayOutputStream localErr = new ByteArrayOutputStream();
      assertThat(cli.run(closed, new PrintStream(localErr, true, StandardCharsets.UTF_8), args))
          .isZero();
      cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
      ByteArrayOutputStream servedErr = new ByteArrayOutputStream();
      assertThat(ServeClient.forward(args, cli.environment(), closed,
          new PrintStream(servedErr, true, StandardCharsets.UTF_8))).hasValue(0);
      cli.variables.remove(ServeProtocol.MODE_VARIABLE);
      // Human: the note came first, and is printed; NDJSON: the command never got to it.
      assertThat(servedErr.toString(StandardCharsets.UTF_8)).as(List.of(args).toString())
          .isEqualTo(localErr.toString(StandardCharsets.UTF_8))
          .isEqualTo(args.length == 4 ? note : "");
    }
  }

  @Test
  void anOversizeRequestIsRefusedWithoutBeingKeptAndTheServerKeepsServing() throws Exception {
    start(Duration.ofMinutes(10));
    String huge = "x".repeat(ServeProtocol.MAX_REQUEST_BYTES);
    ServeClient.Answer a = ask(target, new String[] {"search", huge, "--json"},
        cli.environment(), 0);
    assertThat(a.exit()).as(a.why()).isNull();
    assertThat(a.why()).startsWith("refused: the request is ")
        .endsWith("bytes, more than this server's limit of " + ServeProtocol.MAX_REQUEST_BYTES
            + " bytes");
    // Required, the client says why no server answered; else it runs the command itself.
    assertThat(requiredButNotServed("search", huge, "--json").err())
        .contains("refused: the request is ");
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", huge, "--json")).isEmpty();

    Result ok = served("search", "parseDuration", "--json", "--mode", "lexical");
    assertThat(ok.exit()).as(ok.toString()).isZero();
    assertThat(ok.json().get(0).get("path").asText())
        .isEqualTo("src/main/java/demo/Duration.java");
  }

  @Test
  void aRequestBeyondTheHardLimitIsDroppedAndTheServerKeepsServing() throws Exception {
    ResidentServer s = start(Duration.ofMinutes(10));
    try (Socket c = connect()) {
      OutputStream out = c.getOutputStream();
      ServeProtocol.writeField(out, ServeProtocol.MAGIC);
      ServeProtocol.writeField(out, token(target.home()));
      InputStream in = c.getInputStream();
      out.flush();
      assertThat(ServeProtocol.readLine(in)).isEqualTo(ServeProtocol.MAGIC + " hello");
      // One endless field: the server reads up to its hard limit, then drops the connection.
      byte[] block = new byte[1 << 20];
      java.util.Arrays.fill(block, (byte) 'y');
      try {
        for (long sent = 0; sent <= ServeProtocol.HARD_LIMIT_BYTES + block.length;
            sent += block.length) {
          out.write(block);
        }
        out.flush();
      } catch (IOException e) {
        // the server closed the connection while we wrote: what is tested
      }
      assertThat(in.readAllBytes()).isEmpty();
    } catch (IOException e) {
      // a reset instead of an end of stream is the same outcome
    }
    assertThat(s.isStopping()).isFalse();
    assertIdentical("search", "parse", "--json");
  }

  @Test
  void badCountsEndTheConnectionAndTheServerKeepsServing() throws Exception {
    ResidentServer s = start(Duration.ofMinutes(10));
    for (String count : List.of("-1", "many", "100001")) {
      try (Socket c = connect()) {
        OutputStream out = c.getOutputStream();
        for (String f : List.of(ServeProtocol.MAGIC, token(target.home()),
            ServeProtocol.code().toString(), target.home().toString(), repo.toString(), "0", "0",
            count)) {
          ServeProtocol.writeField(out, f);
        }
        out.flush();
        InputStream in = c.getInputStream();
        assertThat(ServeProtocol.readLine(in)).isEqualTo(ServeProtocol.MAGIC + " hello");
        assertThat(in.readAllBytes()).as(count).isEmpty();
      }
    }
    assertThat(s.isStopping()).isFalse();
    assertIdentical("search", "parse", "--json");
  }

  @Test
  void theRequestCarriesOnlyTheVariablesTheCliReads() throws Exception {
    cli.variables.put("NO_COLOR", "1");
    cli.variables.put("SECRET_TOKEN", "do not send");
    cli.variables.put("PRISM_INDEX_SERVE", "require");
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ServeClient.writeRequest(b, "tok", target, cli.environment(), new String[] {"search", "ü x"});
    ServeProtocol.FieldReader fields = new ServeProtocol.FieldReader(
        new java.io.ByteArrayInputStream(b.toByteArray()));
    assertThat(fields.next()).isEqualTo(ServeProtocol.MAGIC);
    assertThat(fields.next()).isEqualTo("tok");
    assertThat(fields.next()).isEqualTo(ServeProtocol.code().toString());
    assertThat(fields.next()).isEqualTo(target.home().toString());
    assertThat(fields.next()).isEqualTo(repo.toString());
    assertThat(fields.next()).isEqualTo("0");
    assertThat(fields.next()).isEqualTo("0");
    assertThat(fields.count()).isEqualTo(2);
    assertThat(fields.next()).isEqualTo("NO_COLOR=1");
    assertThat(fields.next()).isEqualTo("PRISM_INDEX_SERVE=require");
    assertThat(fields.count()).isEqualTo(2);
    assertThat(fields.next()).isEqualTo("search");
    assertThat(fields.next()).isEqualTo("ü x");
    assertThat(fields.used()).isEqualTo(b.size());
    assertThat(fields.exceeded()).isFalse();
  }

  @Test
  void onlySearchStatusAndServeStopGoToTheServer() {
    assertThat(ServeClient.scan(new String[] {"search", "x"}))
        .isEqualTo(new ServeClient.Scan("search", List.of(), null, null, false, false));
    assertThat(ServeClient.scan(new String[] {"--repo", "a", "status", "--json"}))
        .isEqualTo(new ServeClient.Scan("status", List.of("a"), null, null, false, false));
    assertThat(ServeClient.scan(new String[] {"search", "x", "--index-dir=b", "--debug"}))
        .isEqualTo(new ServeClient.Scan("search", List.of(), null, "b", true, false));
    assertThat(ServeClient.scan(new String[] {"--repo=r", "serve", "--stop"}))
        .isEqualTo(new ServeClient.Scan("serve", List.of("r"), null, null, false, true));
    assertThat(ServeClient.scan(new String[] {"serve", "--index-dir", "i", "--stop"}))
        .isEqualTo(new ServeClient.Scan("serve", List.of(), null, "i", false, true));
    // A query that looks like an option or a command is the query.
    assertThat(ServeClient.scan(new String[] {"search", "--", "--stop"}))
        .isEqualTo(new ServeClient.Scan("search", List.of(), null, null, false, false));
    assertThat(ServeClient.scan(new String[] {"search", "index"}))
        .isEqualTo(new ServeClient.Scan("search", List.of(), null, null, false, false));
    assertThat(ServeClient.scan(new String[] {"search", "--stop"}))
        .isEqualTo(new ServeClient.Scan("search", List.of(), null, null, false, false));
    assertThat(ServeClient.scan(new String[] {"--repo", "a", "search", "x", "--repo=b",
        "--workspace", "w"}))
        .isEqualTo(new ServeClient.Scan("search", List.of("a", "b"), "w", null, false, false));
    assertThat(ServeClient.scan(new String[] {"index"})).isNull();
    assertThat(ServeClient.scan(new String[] {"mcp"})).isNull();
    assertThat(ServeClient.scan(new String[] {"serve"})).isNull();
    assertThat(ServeClient.scan(new String[] {"serve", "--idle-timeout", "1m"})).isNull();
    assertThat(ServeClient.scan(new String[] {"--stop", "serve"})).isNull();
    assertThat(ServeClient.scan(new String[] {"search", "--help"})).isNull();
    assertThat(ServeClient.scan(new String[] {"serve", "--stop", "-h"})).isNull();
    assertThat(ServeClient.scan(new String[] {"--version"})).isNull();
    assertThat(ServeClient.scan(new String[] {"--repo"})).isNull();
    assertThat(ServeClient.scan(new String[] {})).isNull();
  }

  @Test
  void theModeComesFromThePropertyThenTheVariable() {
    assertThat(ServeClient.mode(cli.environment())).isEqualTo("auto");
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "0");
    assertThat(ServeClient.off(ServeClient.mode(cli.environment()))).isTrue();
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "off");
    assertThat(ServeClient.off(ServeClient.mode(cli.environment()))).isTrue();
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
    assertThat(ServeClient.mode(cli.environment())).isEqualTo("require");
    String before = System.getProperty(ServeProtocol.MODE_PROPERTY);
    try {
      System.setProperty(ServeProtocol.MODE_PROPERTY, "off");
      assertThat(ServeClient.mode(cli.environment())).isEqualTo("off");
      // Off, the client does not even look for a server: no exit code, nothing printed.
      Result[] r = new Result[1];
      assertThat(served(cli, r, "search", "parse")).isEmpty();
      assertThat(r[0].err()).isEmpty();
    } finally {
      if (before == null) {
        System.clearProperty(ServeProtocol.MODE_PROPERTY);
      } else {
        System.setProperty(ServeProtocol.MODE_PROPERTY, before);
      }
    }
  }

  @Test
  void badIdleTimeoutIsAUsageError() {
    Result r = cli.run("serve", "--idle-timeout", "soon");
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.err()).isEqualTo("prism-index serve: invalid --idle-timeout 'soon': expected a"
        + " duration such as 90s, 10m, 1h or 500ms (0: never)\n");
    assertThat(cli.run("serve", "--idle-timeout", "10").exit()).isEqualTo(ExitCode.USAGE);
    // Beyond what the idle timer can count (it would stop ticking for good): a usage error.
    Result huge = cli.run("serve", "--idle-timeout", "200000000m");
    assertThat(huge.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(huge.err()).contains("at most 365 days");
    assertThat(ServeProtocol.portFile(target.home())).doesNotExist();
  }
}
