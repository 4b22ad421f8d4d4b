package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Launcher;
import dev.prismindex.cli.Launcher.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose jar is rewritten while it runs, as a rebuild in a checkout rewrites
 * {@code cli/target/prism-index.jar}: a client of another jar makes it stop, and closing its index
 * then needs classes it never loaded, which the rewritten jar no longer holds. It must still end
 * (its lock released, so the next server can start) instead of lingering without a port.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ReplacedJarIT {

  @TempDir Path repo;
  @TempDir Path jars;

  @Test
  void aServerWhoseJarWasRewrittenStillStopsAndFreesItsLock() throws Exception {
    Launcher built = Launcher.ofThisBuild();
    Launcher.write(repo, "src/demo/Duration.java", """
        package demo;

        /** Parses human-readable durations. */
        public final class Duration {
          public static long parseDuration(String text) {
            return Long.parseLong(text.substring(0, text.length() - 1)) * 1000;
          }
        }
        """);
    Run index = built.launch(repo, "index", "--no-semantic");
    assertThat(index.exit()).as(index.toString()).isZero();

    Path serverJar = jars.resolve("server.jar");
    Files.copy(built.jar, serverJar);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = built.command(repo,
        List.of(java, "-jar", serverJar.toString(), "serve", "--idle-timeout", "10m"));
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    ServeIT.ServerProcess server = ServeIT.reading(pb.start());
    try {
      assertThat(server.nextLine()).startsWith("prism-index serve: answering for " + repo);
      // A search through the server's own jar: answered by the server, which opens its index.
      ProcessBuilder search = built.command(repo, List.of(java, "-jar", serverJar.toString(),
          "search", "parse duration", "--json", "--mode", "lexical"));
      search.environment().put("PRISM_INDEX_SERVE", "require");
      Run served = Launcher.run(search);
      assertThat(served.exit()).as(served.toString()).isZero();
      assertThat(served.out()).contains("src/demo/Duration.java");

      // The watch has started and caught up (else, on a loaded machine, it would still be loading
      // its classes from the jar rewritten below, and fail for that reason, not this test's).
      ProcessBuilder status = built.command(repo, List.of(java, "-jar", serverJar.toString(),
          "status", "--json"));
      status.environment().put("PRISM_INDEX_SERVE", "require");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Launcher.run(status).out().contains("\"watch\":\"current")) {
        assertThat(System.nanoTime()).as("the server's watch is current").isLessThan(deadline);
        Thread.sleep(200);
      }
      Files.write(serverJar, new byte[0]); // rewritten in place: the classes not loaded are gone
      // A client of another jar: the server refuses it and stops.
      Run stop = built.launch(repo, "serve", "--stop");
      assertThat(stop.exit()).as(stop.toString()).isZero();
      assertThat(server.process().waitFor(2, TimeUnit.MINUTES)).as("the server ended").isTrue();

      List<String> rest = new ArrayList<>();
      for (String line; !(line = server.lines().take()).equals(ServeIT.EOF); ) {
        rest.add(line);
      }
      assertThat(server.process().exitValue()).as("its exit, having printed %s", rest).isZero();
      assertThat(rest).as("what the server printed").anyMatch(l -> l.startsWith(
          "prism-index serve: stopped (this server runs " + serverJar))
          .noneMatch(l -> l.startsWith("Exception in thread"));
      // Its lock is free: the next server starts, and stops when idle.
      Run next = built.launch(repo, "serve", "--idle-timeout", "1s");
      assertThat(next.exit()).as(next.toString()).isZero();
      assertThat(next.err()).contains("prism-index serve: answering for " + repo)
          .contains("prism-index serve: stopped (idle for 1s)");
    } finally {
      server.process().destroyForcibly();
      server.process().waitFor(1, TimeUnit.MINUTES);
    }
  }
}
