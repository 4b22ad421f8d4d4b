package dev.prismindex.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.cli.Harness;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.cli.command.LocalBackend;
import dev.prismindex.cli.command.Requests;
import dev.prismindex.cli.command.Target;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.IndexProgress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WarmBackend}: the same output as {@link LocalBackend} for every command, an index kept
 * open across calls, other processes' commits picked up, concurrent searches during an indexing run.
 */
public class WarmBackendTest {

  @TempDir Path repo;
  Harness cli;
  WarmBackend warm;

  @BeforeEach
  void setUp() throws Exception {
    cli = Harness.indexedSmallRepository(repo);
    warm = new WarmBackend(cli.environment());
  }

  @AfterEach
  void tearDown() throws Exception {
    warm.close();
  }

  private Result local(String... args) {
    cli.backends = LocalBackend::new;
    return cli.run(args);
  }

  private Result warm(String... args) {
    cli.backends = env -> warm;
    return cli.run(args);
  }

  /** Timings differ from run to run; everything else must not. */
  public static String normalise(String s) {
    return s.replaceAll("\\d+ ms", "N ms").replaceAll("\"(probeMs|durationMs)\":\\d+", "\"$1\":N")
        // status's "updated ... (just now)" turns into "(1 min ago)" when two runs straddle a
        // minute after the index run (seen on a loaded machine): a timing too
        .replaceAll("\\((just now|\\d+ (min|h|days) ago)\\)", "(AGO)")
        .replaceAll("(?m)^(\\s*probe:?.*?)\\d+", "$1N")
        // status names the server that answered (none in-process): the one intended difference
        .replaceAll("\"server\":(null|\\{[^}]*\\})", "\"server\":S")
        .replaceAll("(?m)^server    .*$", "server    S");
  }

  /** The NDJSON hits without their {@code freshness} (which says what the search did first). */
  public static List<JsonNode> withoutFreshness(Result r) {
    List<JsonNode> hits = r.json();
    // The MCP tool's object carries both once (freshness, schemaVersion), not per hit.
    hits.forEach(h -> ((ObjectNode) h).remove(List.of("freshness", "v")));
    return hits;
  }

  private void assertSame(String... args) {
    Result l = local(args);
    Result w = warm(args);
    assertThat(w.exit()).as("exit of %s", List.of(args)).isEqualTo(l.exit());
    assertThat(normalise(w.out())).as("stdout of %s", List.of(args)).isEqualTo(normalise(l.out()));
    assertThat(normalise(w.err())).as("stderr of %s", List.of(args)).isEqualTo(normalise(l.err()));
  }

  @Test
  void everyCommandPrintsWhatTheOneShotBackendPrints() {
    for (String mode : List.of("lexical", "semantic", "hybrid", "literal")) {
      assertSame("search", "parse duration", "--json", "--mode", mode);
      assertSame("search", "parse duration", "--mode", mode);
      assertSame("search", "Duration", "--mode", mode, "--path", "src", "--limit", "3");
    }
    assertSame("search", "stale index");
    assertSame("search", "Long.parseLong", "--mode", "literal", "--case-sensitive", "--json");
    assertSame("status");
    assertSame("status", "--json");
    assertSame("search", "--mode", "lexical");
    assertThat(warm.openTargets()).hasSize(1);
  }

  @Test
  void failuresHaveTheSameExitCodesAndMessages() throws Exception {
    Path other = Files.createDirectories(repo.resolve("tools/empty"));
    assertSame("--repo", other.toString(), "search", "anything");
    assertSame("--repo", other.toString(), "status");
    assertSame("search", "anything", "--mode", "nonsense");
    cli.model = Environment.Model.NONE;
    WarmBackend lexicalOnly = new WarmBackend(cli.environment());
    try {
      cli.backends = LocalBackend::new;
      Result l = cli.run("search", "parse", "--mode", "semantic");
      cli.backends = env -> lexicalOnly;
      Result w = cli.run("search", "parse", "--mode", "semantic");
      assertThat(l.exit()).isEqualTo(ExitCode.MODEL);
      assertThat(w.exit()).isEqualTo(l.exit());
      assertThat(w.err()).isEqualTo(l.err());
    } finally {
      lexicalOnly.close();
    }
  }

  @Test
  void catchesUpOnChangedFilesLikeTheOneShotBackend() throws Exception {
    assertThat(warm("search", "parse duration", "--json").exit()).isZero();
    cli.write("src/main/java/demo/Quartz.java", "package demo;\n\n/** Quartz crystal oscillator."
        + " */\nfinal class Quartz {\n  int frequencyOfQuartz() {\n    return 32768;\n  }\n}\n");
    Result r = warm("search", "quartz oscillator", "--json", "--mode", "lexical");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json()).isNotEmpty();
    assertThat(r.json().get(0).get("path").asText()).isEqualTo("src/main/java/demo/Quartz.java");
    assertSame("search", "quartz oscillator", "--mode", "hybrid");
  }

  @Test
  void seesCommitsOfAnotherProcess() throws Exception {
    assertThat(warm("search", "parse duration", "--json").exit()).isZero();
    long before = HybridIndex.commitGeneration(repo.resolve(".prism-index"));
    cli.write("docs/glacier.md", "# Glacier\n\nMoraine and crevasse notes.\n");
    // Another process: the one-shot backend indexes; the warm one must not search its old commit.
    assertThat(local("index").exit()).isZero();
    assertThat(HybridIndex.commitGeneration(repo.resolve(".prism-index"))).isGreaterThan(before);
    Result r = warm("search", "moraine crevasse", "--json", "--no-refresh");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.json()).extracting(h -> h.get("path").asText()).contains("docs/glacier.md");
    assertSame("status", "--json");
  }

  @Test
  void indexRunsThroughTheWarmBackendAndRepairsWithFull() throws Exception {
    cli.write("notes/tide.md", "# Tide\n\nSpring tide and neap tide.\n");
    Result r = warm("index", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(warm("search", "neap tide", "--json", "--no-refresh").json())
        .extracting(h -> h.get("path").asText()).contains("notes/tide.md");
    assertThat(warm("index", "--full").exit()).isZero();
    assertSame("search", "neap tide", "--json", "--no-refresh", "--mode", "hybrid");
  }

  /**
   * Searches run while an indexing run of the same backend is held in the middle of its run (by its
   * progress callback, so the overlap does not depend on timing): every search answers from the last
   * commit, with the same hits as before; a search that would catch up does not wait for the run.
   */
  @Test
  void concurrentSearchesDuringAnIndexRun() throws Exception {
    Result baseline = warm("search", "parse duration", "--json", "--mode", "hybrid");
    assertThat(baseline.exit()).isZero();
    cli.write("notes/unrelated.md", "# Lighthouse\n\nA lamp and a lens.\n");
    CountDownLatch inRun = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Progress holding = p -> {
      if (p.phase() == IndexProgress.Phase.INDEXING && inRun.getCount() > 0) {
        inRun.countDown();
        try {
          release.await(5, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    ExecutorService pool = Executors.newFixedThreadPool(5);
    try {
      Requests.IndexRequest request = new Requests.IndexRequest(
          new Target(repo, repo.resolve(".prism-index")), true, false, false, true);
      Future<Results.IndexSummary> run = pool.submit(() -> warm.index(request, holding));
      assertThat(inRun.await(5, TimeUnit.MINUTES)).as("the index run reached its indexing phase")
          .isTrue();
      List<Future<List<Result>>> searches = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        searches.add(pool.submit(() -> {
          Harness h = new Harness(repo);
          h.model = cli.model;
          h.backends = env -> warm;
          List<Result> out = new ArrayList<>();
          for (int i = 0; i < 5; i++) {
            out.add(h.run("search", "parse duration", "--json", "--mode", "hybrid"));
            out.add(h.run("search", "lamp lens", "--mode", "lexical"));
          }
          return out;
        }));
      }
      for (Future<List<Result>> f : searches) {
        for (Result r : f.get(5, TimeUnit.MINUTES)) {
          assertThat(r.exit()).as(r.toString()).isZero();
          if (r.out().startsWith("{")) {
            // The hits of the last commit, each saying that the run held the index.
            assertThat(withoutFreshness(r)).isEqualTo(withoutFreshness(baseline));
            assertThat(r.json()).allSatisfy(hit -> assertThat(
                hit.get("freshness").get("skippedBecauseLocked").asBoolean()).isTrue());
            assertThat(r.err()).contains("an indexing run is writing the index");
          } else {
            // The new file is not committed yet, and the catch-up left it to the run.
            assertThat(r.out()).doesNotContain("notes/unrelated.md");
            assertThat(r.err()).contains("an indexing run is writing the index");
          }
        }
      }
      release.countDown();
      Results.IndexSummary summary = run.get(5, TimeUnit.MINUTES);
      assertThat(summary.added()).isEqualTo(1);
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    Result after = warm("search", "lamp lens", "--json", "--mode", "lexical", "--no-refresh");
    assertThat(after.json()).extracting(h -> h.get("path").asText()).contains("notes/unrelated.md");
    assertSame("search", "parse duration", "--json", "--mode", "hybrid");
  }

  /** The live threads named {@code name}. */
  private static Set<Thread> alive(String name) {
    Set<Thread> out = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals(name) && t.isAlive()) {
        out.add(t);
      }
    }
    return out;
  }

  @Test
  void closeWaitsForAWatchStillStartingAndNoWatchOutlivesIt() throws Exception {
    // Seen once under load: a server stopped while its watch was starting; the watch was closed
    // by its starter only after close() returned, and wrote its fence directory into the index
    // the caller was deleting by then.
    Set<Thread> before = alive("prism-index-watch");
    WarmBackend watching = WarmBackend.watching(cli.environment(), "serve", Duration.ofMinutes(10));
    CountDownLatch starting = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    watching.beforeWatchPublished = () -> {
      starting.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    cli.backends = env -> watching;
    assertThat(cli.run("search", "parse", "--json").exit()).isZero();
    assertThat(starting.await(30, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
      try {
        watching.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    Thread.sleep(300);
    assertThat(closing).as("close() returned while a watch was starting").isNotDone();
    release.countDown();
    closing.get(30, TimeUnit.SECONDS);
    Set<Thread> after = alive("prism-index-watch");
    after.removeAll(before);
    assertThat(after).as("watch threads left running").isEmpty();
  }

  @Test
  void aSearchWhileTheWatchStartsWaitsForTheWatchsRefresh() throws Exception {
    // Seen under load (ResidentServerTest, a file written before the server started): the first
    // search probed while the new watch's first refresh held the right to write; the search took
    // that refresh for an indexing run, skipped its catch-up and answered from the old commit.
    WarmBackend watching = WarmBackend.watching(cli.environment(), "serve", Duration.ofMinutes(10));
    CountDownLatch published = new CountDownLatch(1);
    watching.beforeWatchPublished = () -> await(published);
    CountDownLatch refreshing = new CountDownLatch(1);
    CountDownLatch refresh = new CountDownLatch(1);
    watching.duringWatchRefresh = () -> {
      refreshing.countDown();
      await(refresh);
    };
    cli.backends = env -> watching;
    try {
      assertThat(cli.run("search", "parse", "--json").exit()).isZero();
      assertThat(refreshing.await(30, TimeUnit.SECONDS)).as("the watch's first refresh").isTrue();
      cli.write("notes/late.txt", "a zqxLateNeedle line\n");
      CompletableFuture<Result> search = CompletableFuture.supplyAsync(
          () -> cli.run("search", "zqxLateNeedle", "--mode", "literal", "--json"));
      Thread.sleep(500); // the search probes the tree and finds the new file meanwhile
      refresh.countDown();
      Result r = search.get(30, TimeUnit.SECONDS);
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.json()).as(r.err()).extracting(h -> h.get("path").asText())
          .containsExactly("notes/late.txt");
    } finally {
      refresh.countDown();
      published.countDown();
      watching.close();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void closedBackendRefusesCalls() throws Exception {
    assertThat(warm("search", "parse", "--json").exit()).isZero();
    warm.close();
    Result r = warm("search", "parse", "--json");
    assertThat(r.exit()).isEqualTo(ExitCode.FAILURE);
    assertThat(r.err()).contains("shutting down");
    warm.close();
  }
}
