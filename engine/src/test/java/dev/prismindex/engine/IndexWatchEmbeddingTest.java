package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.engine.IndexWatch.State;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embeddings of an {@link IndexWatch}: they follow the lexical refreshes in the background and
 * never hold a lexical refresh up for long. Waits are generous; nothing is timed.
 */
class IndexWatchEmbeddingTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path root;
  private HybridIndex index;
  private IndexWatch watch;
  private final List<RefreshOptions> calls = Collections.synchronizedList(new ArrayList<>());
  private final List<Throwable> embeddingEnds = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger embedding = new AtomicInteger();

  @AfterEach
  void closeAll() throws IOException {
    if (watch != null) {
      watch.close();
    }
    if (index != null) {
      index.close();
    }
  }

  /** Starts a watch that records its refreshes and whether an embedding run is in its phase. */
  private void start(FakeEmbedder embedder) throws IOException {
    HybridIndexOptions options = HybridIndexOptions.builder(root).embedder(embedder)
        .embeddingCommitInterval(Duration.ZERO).build();
    index = HybridIndex.open(options);
    watch = IndexWatch.start(options, r -> {
      calls.add(r);
      if (!r.embed()) {
        return index.refresh(r);
      }
      try {
        return index.refresh(r.withProgress(p -> {
          if (p.phase() == IndexProgress.Phase.EMBEDDING) {
            embedding.incrementAndGet();
          }
          r.progress().onProgress(p);
        }));
      } catch (IOException | RuntimeException e) {
        embeddingEnds.add(e);
        throw e;
      }
    });
  }

  private static void await(String what, BooleanSupplier condition, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
      Thread.sleep(20);
    }
  }

  private long embedded() {
    try {
      return index.engineStatus().coverage().chunksEmbedded();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void embeddingsFollowTheLexicalRefreshesInTheBackground() throws Exception {
    write(root, "calc.py", TestRepos.pyFunction("compute_total", "invoice"));
    start(TestEmbedders.fake());
    assertThat(watch.sync(WAIT).state()).isEqualTo(State.CURRENT);
    assertThat(calls.get(0).embed()).as("the first refresh is lexical").isFalse();
    // The whole catch-up at start embeds nothing (its missing vectors may be the whole index's).

    write(root, "report.py", TestRepos.pyFunction("render_report", "summary"));
    assertThat(watch.sync(WAIT).state()).isEqualTo(State.CURRENT);
    RefreshOptions lexical = calls.get(calls.size() - 1);
    assertThat(lexical.embed()).isFalse();
    assertThat(lexical.scope()).containsExactly("report.py");
    assertThat(index.engineStatus().coverage().complete()).as("lexical first").isFalse();

    await("the new chunks' embeddings", () -> embedded() > 0, Duration.ofSeconds(30));
    RefreshOptions follow = calls.get(calls.size() - 1);
    assertThat(follow.embed()).isTrue();
    assertThat(follow.scope()).containsExactly("report.py");
    assertThat(index.search("render report summary", SearchOpts.semantic(3)))
        .extracting(Hit::path).first().isEqualTo("report.py");
  }

  @Test
  void anEventStopsTheEmbeddingAfterItsBatchSoTheLexicalRefreshRunsAtOnce() throws Exception {
    // About 50 ms per text: hundreds of texts take far longer than the wait below.
    start(TestEmbedders.fake().slow(50_000));
    assertThat(watch.sync(WAIT).state()).isEqualTo(State.CURRENT);
    for (int i = 0; i < 400; i++) {
      write(root, "pkg" + (i % 20) + "/m" + i + ".py", TestRepos.pyFunction("f" + i, "word" + i));
    }
    assertThat(watch.sync(WAIT).state()).isEqualTo(State.CURRENT);
    await("the first vectors", () -> embedding.get() > 0 && embedded() > 0,
        Duration.ofSeconds(30));
    int callsBefore = calls.size();

    write(root, "pkg0/m0.py", TestRepos.pyFunction("changed_during_embedding", "novel"));
    IndexWatch.Sync s = watch.sync(WAIT);

    assertThat(s.state()).as("status %s", watch.status()).isEqualTo(State.CURRENT);
    assertThat(index.search("changed_during_embedding", SearchOpts.lexical(3)))
        .extracting(Hit::path).containsExactly("pkg0/m0.py");
    assertThat(embeddingEnds).as("the embedding run stopped").isNotEmpty();
    assertThat(calls.get(callsBefore)).as("the next refresh is the lexical one")
        .satisfies(r -> assertThat(r.embed()).isFalse())
        .satisfies(r -> assertThat(r.scope()).containsExactly("pkg0/m0.py"));
    assertThat(index.engineStatus().coverage().complete()).as("still embedding").isFalse();
  }
}
