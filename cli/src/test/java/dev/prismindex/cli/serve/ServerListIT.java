package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Launcher;
import dev.prismindex.cli.Launcher.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Background servers as a user sees them, through the real launcher: a search that starts one says
 * so in one line when stderr is a terminal (and only then), {@code serve --list} shows the servers
 * of two repositories with their memory and uptime, and {@code serve --stop-all} stops both. The
 * user's registry is a temporary {@code XDG_RUNTIME_DIR}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ServerListIT {

  @TempDir Path first;
  @TempDir Path second;
  @TempDir Path runtime;
  Launcher built;

  @BeforeEach
  void setUp() throws Exception {
    built = Launcher.ofThisBuild();
    for (Path repo : List.of(first, second)) {
      Launcher.write(repo, "src/Greeter.java", "class Greeter { void greet() {} }\n");
      Launcher.commitAll(repo);
      Run index = run(repo, List.of("PRISM_INDEX_SERVE=0"), "index", "--no-semantic");
      assertThat(index.exit()).as(index.toString()).isZero();
      // The first search after a build may record the class-data archive (never served).
      assertThat(run(repo, List.of("PRISM_INDEX_SERVE=0"), "search", "greet").exit()).isZero();
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    for (Path repo : List.of(first, second)) {
      built.stopServers(repo, repo.resolve(".prism-index"));
    }
  }

  private Run run(Path repo, List<String> env, String... args) throws Exception {
    ProcessBuilder pb = built.launcher(repo, args);
    pb.environment().remove("PRISM_INDEX_SERVE");
    pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
    for (String e : env) {
      int eq = e.indexOf('=');
      pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
    }
    return Launcher.run(pb);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (Exception e) {
      return e.toString();
    }
  }

  private static void awaitServer(Path repo) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (Launcher.serversOf(repo.resolve(".prism-index")).isEmpty()
        || !ServeProtocol.portFile(repo.resolve(".prism-index")).toFile().exists()) {
      assertThat(System.nanoTime()).as("a server for " + repo).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  @Test
  void aStartedServerIsSaidListedAndStopped() throws Exception {
    // A terminal's stderr (the launcher passes [ -t 2 ] as this property; added last, it wins).
    Run started = run(first, List.of("PRISM_INDEX_JAVA_OPTS=-Dprism-index.stderr.tty=true"),
        "search", "greet", "--json");
    assertThat(started.exit()).as(started.toString()).isZero();
    assertThat(started.err()).isEqualTo("prism-index: started a resident server for " + first
        + " in the background (it answers the next searches and stops after 15m idle;"
        + " prism-index serve --list, --stop; PRISM_INDEX_SERVE=0 for none)\n");
    Run quiet = run(second, List.of(), "search", "greet", "--json");
    assertThat(quiet.err()).as("stderr not a terminal: nothing said").isEmpty();
    awaitServer(first);
    awaitServer(second);
    long deadline0 = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (run(first, List.of(), "serve", "--list", "--json").json().size() < 2) {
      assertThat(System.nanoTime()).as("both servers listed").isLessThan(deadline0);
      Thread.sleep(200);
    }

    Run list = run(first, List.of(), "serve", "--list");
    assertThat(list.exit()).as(list.toString()).isZero();
    assertThat(list.out().lines().toList()).as("%s; registry %s; logs %s %s", list,
        Files.walk(runtime).toList(),
        read(first.resolve(".prism-index/serve/serve.log")),
        read(second.resolve(".prism-index/serve/serve.log"))).hasSize(3).anySatisfy(l ->
        assertThat(l).contains(first.toString()).contains(" MB")).anySatisfy(l ->
        assertThat(l).contains(second.toString()));
    List<JsonNode> json = run(second, List.of(), "serve", "--list", "--json").json();
    assertThat(json).hasSize(2).allSatisfy(s -> {
      assertThat(s.get("rssBytes").asLong()).isPositive();
      assertThat(Launcher.serversOf(Path.of(s.get("indexDir").asText())))
          .extracting(ProcessHandle::pid).containsExactly(s.get("pid").asLong());
    });

    Run stop = run(second, List.of(), "serve", "--stop-all");
    assertThat(stop.exit()).as(stop.toString()).isZero();
    assertThat(stop.err().lines().toList()).hasSize(2);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Launcher.serversOf(first.resolve(".prism-index")).isEmpty()
        || !Launcher.serversOf(second.resolve(".prism-index")).isEmpty()) {
      assertThat(System.nanoTime()).as("both servers stop").isLessThan(deadline);
      Thread.sleep(100);
    }
    assertThat(run(first, List.of(), "serve", "--list").err())
        .isEqualTo("prism-index serve: no resident server is running\n");
  }
}
