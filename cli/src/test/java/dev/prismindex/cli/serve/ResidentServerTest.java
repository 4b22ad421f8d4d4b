package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.cli.Harness;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.CliFailure;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.LocalBackend;
import dev.prismindex.cli.command.Target;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident server in this JVM, reached through {@link ServeClient} over its real socket:
 * output identical to the in-process command, concurrent clients, one server per index, a stale
 * socket, the idle exit, permissions and the handshake. (The end-to-end tests with a killed server
 * process are in {@code ServeIT}.)
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ResidentServerTest {

  @TempDir Path repo;
  Harness cli;
  Target target;
  final List<ResidentServer> servers = new ArrayList<>();
  final ByteArrayOutputStream serverLog = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    target = new Target(repo, repo.resolve(".prism-index"));
  }

  @AfterEach
  void tearDown() {
    servers.forEach(ResidentServer::close);
  }

  private ResidentServer start(Duration idle) throws Exception {
    ResidentServer s = ResidentServer.start(target, cli.environment(), idle,
        new PrintStream(serverLog, true, StandardCharsets.UTF_8), Harness.COMMANDS);
    servers.add(s);
    return s;
  }

  /** A socket bound where the server's goes, in a private directory, by the test itself. */
  private static ServerSocketChannel bindAt(Path socket) throws IOException {
    Files.createDirectories(socket.getParent(),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    channel.bind(UnixDomainSocketAddress.of(socket));
    return channel;
  }

  private String log() {
    return serverLog.toString(StandardCharsets.UTF_8);
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

  private void assertIdentical(String... args) {
    Result local = cli.run(args);
    Result served = served(args);
    assertThat(served.exit()).as("exit of %s", List.of(args)).isEqualTo(local.exit());
    assertThat(WarmBackendTest.normalise(served.out())).as("stdout of %s", List.of(args))
        .isEqualTo(WarmBackendTest.normalise(local.out()));
    assertThat(WarmBackendTest.normalise(served.err())).as("stderr of %s", List.of(args))
        .isEqualTo(WarmBackendTest.normalise(local.err()));
  }

  @Test
  void outputIsIdenticalWithAndWithoutTheServer() throws Exception {
    start(Duration.ofMinutes(10));
    for (String mode : List.of("lexical", "semantic", "hybrid", "literal")) {
      assertIdentical("search", "parse duration", "--json", "--mode", mode);
      assertIdentical("search", "parse duration", "--mode", mode, "-n", "2");
    }
    assertIdentical("search", "stale index check");
    assertIdentical("search", "snake", "--path", "tools", "--json");
    assertIdentical("status");
    assertIdentical("status", "--json");
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
        .hasMessageContaining("a server is already running for " + repo);
    assertThat(first.isStopped()).isFalse();
    assertThat(served("status", "--json").exit()).isZero();
    // Through the command line: exit 1 and one line on stderr.
    Result r = cli.run("serve", "--idle-timeout", "1s");
    assertThat(r.exit()).isEqualTo(ExitCode.FAILURE);
    assertThat(r.err()).startsWith("prism-index serve: a server is already running for ");
  }

  @Test
  void staleSocketFallsBackAndIsReplacedByTheNextServer() throws Exception {
    // What a killed server leaves: a socket file nobody listens on (the lock died with it).
    Path socket = ServeProtocol.socket(target.home());
    bindAt(socket).close();
    assertThat(socket).exists();
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
    assertThat(r[0].out()).isEmpty();
    assertThat(r[0].err()).isEmpty();
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
    assertThat(served(cli, r, "search", "parse", "--json")).hasValue(ExitCode.FAILURE);
    assertThat(r[0].err()).contains("no resident server answered").contains("no server listening");
    cli.variables.remove(ServeProtocol.MODE_VARIABLE);

    start(Duration.ofMinutes(10));
    assertThat(log()).contains("removed the socket of a server that did not stop");
    assertIdentical("search", "parse", "--json");
  }

  @Test
  void stopsWhenIdleAndRemovesItsSocket() throws Exception {
    ResidentServer s = start(Duration.ofSeconds(1));
    s.await();
    assertThat(log()).contains("stopped (idle for 1s)");
    assertThat(s.socket()).doesNotExist();
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
        new PrintStream(serverLog, true, StandardCharsets.UTF_8), Harness.COMMANDS)) {
      assertThat(s.socket().getParent().resolve(".gitignore")).hasContent("*");
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
  void stopsWhenItsSocketIsRemoved() throws Exception {
    ResidentServer s = start(Duration.ZERO);
    Files.delete(s.socket());
    s.await();
    assertThat(log()).contains("was removed");
  }

  @Test
  void socketAndDirectoryAreTheOwnersOnly() throws Exception {
    Path dir = ServeProtocol.dir(target.home());
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    ResidentServer s = start(Duration.ofMinutes(10));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(s.socket(),
        LinkOption.NOFOLLOW_LINKS))).isEqualTo("rw-------");
    assertThat(ServeClient.unsafe(s.socket())).isNull();
    // A directory others may enter is not trusted by the client.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(ServeClient.unsafe(s.socket())).contains("open to other users");
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse")).isEmpty();
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    assertThat(served(cli, r, "search", "parse")).isPresent();
  }

  @Test
  void aServerOfAnotherVersionIsIgnored() throws Exception {
    Path socket = ServeProtocol.socket(target.home());
    try (ServerSocketChannel other = bindAt(socket)) {
      Thread peer = new Thread(() -> {
        try (SocketChannel c = other.accept()) {
          // As a server does: read the client's hello, answer with its own.
          ServeProtocol.readHello(new DataInputStream(Channels.newInputStream(c)));
          DataOutputStream out = new DataOutputStream(Channels.newOutputStream(c));
          out.writeInt(ServeProtocol.MAGIC);
          out.writeInt(ServeProtocol.VERSION + 1);
          ServeProtocol.writeString(out, "a future build");
          out.flush();
        } catch (IOException e) {
          // the test fails on the client side
        }
      });
      peer.start();
      ServeClient.Answer a = ServeClient.ask(target, new String[] {"search", "x"},
          cli.environment(), 0);
      peer.join();
      assertThat(a.exit()).isNull();
      assertThat(a.why()).isEqualTo("ignored: protocol version " + (ServeProtocol.VERSION + 1)
          + ", this one " + ServeProtocol.VERSION);
    }
    Files.delete(socket);
    // And the command still runs, in this process, with its usual output.
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--json")).isEmpty();
  }

  @Test
  void debugRunsInProcessAfterAHandshake() throws Exception {
    start(Duration.ofMinutes(10));
    ServeClient.Answer probe = ServeClient.ask(target, new String[0], cli.environment(),
        ServeClient.HELLO_TIMEOUT_MS);
    assertThat(probe.exit()).isNull();
    assertThat(probe.why()).isEqualTo("a server answers");
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", "parse", "--debug")).isEmpty();
    assertThat(r[0].out()).isEmpty();
    // The server still answers after a handshake-only connection.
    assertThat(served(cli, r, "search", "parse")).hasValue(0);
  }

  @Test
  void anOversizeRequestIsRefusedWithoutBeingKeptAndTheServerKeepsServing() throws Exception {
    start(Duration.ofMinutes(10));
    String huge = "x".repeat(ServeProtocol.MAX_REQUEST_BYTES);
    ServeClient.Answer a = ServeClient.ask(target, new String[] {"search", huge, "--json"},
        cli.environment(), 0);
    assertThat(a.exit()).as(a.why()).isNull();
    assertThat(a.why()).startsWith("refused: the request is ")
        .endsWith("bytes, more than this server's limit of " + ServeProtocol.MAX_REQUEST_BYTES
            + " bytes");
    // Required, the client says why no server answered; else it runs the command itself.
    cli.variables.put(ServeProtocol.MODE_VARIABLE, "require");
    Result[] r = new Result[1];
    assertThat(served(cli, r, "search", huge, "--json")).hasValue(ExitCode.FAILURE);
    assertThat(r[0].err()).contains("no resident server answered for ")
        .contains("refused: the request is ");
    cli.variables.remove(ServeProtocol.MODE_VARIABLE);

    Result ok = served("search", "parseDuration", "--json", "--mode", "lexical");
    assertThat(ok.exit()).as(ok.toString()).isZero();
    assertThat(ok.json().get(0).get("path").asText())
        .isEqualTo("src/main/java/demo/Duration.java");
  }

  @Test
  void aServerThatSaysNoHelloIsPassedOver() throws Exception {
    Path socket = ServeProtocol.socket(target.home());
    try (ServerSocketChannel stuck = bindAt(socket)) {
      // Accepted by the kernel (the backlog), never answered: a stopped or wedged server.
      ServeClient.Answer a = ServeClient.ask(target, new String[] {"search", "x"},
          cli.environment(), 200);
      assertThat(a.exit()).isNull();
      assertThat(a.why()).isEqualTo("no hello within 200 ms (the server is busy or stuck)");
    }
  }

  @Test
  void onlySearchAndStatusGoToTheServer() {
    assertThat(ServeClient.scan(new String[] {"search", "x"})).isNotNull();
    assertThat(ServeClient.scan(new String[] {"--repo", "a", "status", "--json"}))
        .isEqualTo(new ServeClient.Scan("a", null, false));
    assertThat(ServeClient.scan(new String[] {"search", "x", "--index-dir=b", "--debug"}))
        .isEqualTo(new ServeClient.Scan(null, "b", true));
    assertThat(ServeClient.scan(new String[] {"index"})).isNull();
    assertThat(ServeClient.scan(new String[] {"serve"})).isNull();
    assertThat(ServeClient.scan(new String[] {"search", "--help"})).isNull();
    assertThat(ServeClient.scan(new String[] {"--version"})).isNull();
    assertThat(ServeClient.scan(new String[] {"--repo"})).isNull();
    assertThat(ServeClient.scan(new String[] {})).isNull();
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
    assertThat(ServeProtocol.socket(target.home())).doesNotExist();
  }
}
