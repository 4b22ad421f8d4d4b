package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.Target;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --list} and {@code serve --stop-all} over servers of two repositories running in
 * this JVM: each server records itself in the user's registry while it runs (pid, port, memory,
 * uptime, repository, index), stale entries are dropped, and {@code --stop-all} stops them all.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServerRegistryTest {

  @TempDir Path first;
  @TempDir Path second;
  @TempDir Path runtime;
  final List<ResidentServer> servers = new ArrayList<>();
  Harness a;
  Harness b;

  @BeforeEach
  void setUp() throws Exception {
    a = Harness.indexedSmallRepository(first);
    b = Harness.indexedSmallRepository(second);
    for (Harness h : List.of(a, b)) {
      h.variables.put("XDG_RUNTIME_DIR", runtime.toString());
    }
  }

  @AfterEach
  void tearDown() {
    servers.forEach(ResidentServer::close);
  }

  private ResidentServer start(Harness h) throws Exception {
    ResidentServer s = ResidentServer.start(new Target(h.repo, h.repo.resolve(".prism-index")),
        h.environment(), Duration.ZERO, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), Harness.COMMANDS, Duration.ZERO);
    servers.add(s);
    return s;
  }

  @Test
  void listShowsEveryRunningServerOfTheUser() throws Exception {
    Result none = a.run("serve", "--list");
    assertThat(none.exit()).isZero();
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).isEqualTo("prism-index serve: no resident server is running\n");

    start(a);
    start(b);
    Result list = b.run("serve", "--list");
    assertThat(list.exit()).as(list.toString()).isZero();
    List<String> lines = list.outLines();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("PID").contains("PORT", "RSS", "UPTIME", "REPOSITORY",
        "INDEX");
    long pid = ProcessHandle.current().pid();
    assertThat(lines.get(1)).startsWith(Long.toString(pid)).contains(" MB", " s  " + first,
        first.resolve(".prism-index").toString());
    assertThat(lines.get(2)).contains(second.toString());

    List<JsonNode> json = a.run("serve", "--list", "--json").json();
    assertThat(json).hasSize(2);
    JsonNode one = json.get(0);
    assertThat(one.get("pid").asLong()).isEqualTo(pid);
    assertThat(one.get("repo").asText()).isEqualTo(first.toString());
    assertThat(one.get("indexDir").asText()).isEqualTo(first.resolve(".prism-index").toString());
    assertThat(one.get("port").asInt()).isEqualTo(Integer.parseInt(Files.readString(
        ServeProtocol.portFile(first.resolve(".prism-index"))).split(" ")[0]));
    assertThat(one.get("rssBytes").asLong()).isPositive();
    assertThat(one.get("uptimeSeconds").asLong()).isNotNegative();
    assertThat(one.get("startedAt").asText()).isNotBlank();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
        runtime.resolve("prism-index/servers")))).isEqualTo("rwx------");
  }

  @Test
  void stopAllStopsEveryServerAndTheirEntriesGo() throws Exception {
    ResidentServer sa = start(a);
    ResidentServer sb = start(b);
    Result stop = a.run("serve", "--stop-all");
    assertThat(stop.exit()).as(stop.toString()).isZero();
    assertThat(stop.err()).contains("stopping the server of " + first)
        .contains("stopping the server of " + second);
    for (ResidentServer s : List.of(sa, sb)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!s.isStopped() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(s.isStopped()).isTrue();
    }
    assertThat(a.run("serve", "--list").out()).isEmpty();
    assertThat(runtime.resolve("prism-index/servers")).isEmptyDirectory();
  }

  @Test
  void aStaleEntryIsDroppedWhenRead() throws Exception {
    start(a);
    Path dir = runtime.resolve("prism-index/servers");
    // Servers killed without cleaning up: a process that is gone (pid 2^22 + 1 is above Linux's
    // pid_max), and a pid that now belongs to another process (this one, which began after that
    // server did).
    Files.writeString(dir.resolve("4194305-1.json"), "{\"pid\":4194305,\"repo\":\"/gone\","
        + "\"index\":\"/gone/.prism-index\",\"port\":1,\"started\":\"2026-01-01T00:00:00Z\"}");
    Files.writeString(dir.resolve(ProcessHandle.current().pid() + "-2.json"), "{\"pid\":"
        + ProcessHandle.current().pid() + ",\"repo\":\"/other\",\"index\":\"/other/.p\","
        + "\"port\":2,\"started\":\"2020-01-01T00:00:00Z\"}");
    Files.writeString(dir.resolve("garbage.json"), "not json");
    assertThat(a.run("serve", "--list", "--json").json()).hasSize(1);
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).toList()).hasSize(1);
    }
  }

  @Test
  void listAndStopAllStandAlone() {
    for (List<String> args : List.of(List.of("serve", "--list", "--stop-all"),
        List.of("serve", "--list", "--stop"), List.of("serve", "--stop-all", "--json"),
        List.of("serve", "--list", "--idle-timeout", "1m"))) {
      Result r = a.run(args.toArray(String[]::new));
      assertThat(r.exit()).as(args + ": " + r).isEqualTo(ExitCode.USAGE);
      assertThat(r.err()).contains("stands alone");
    }
    assertThat(a.run("serve", "--json").err()).contains("--json goes with --list");
  }
}
