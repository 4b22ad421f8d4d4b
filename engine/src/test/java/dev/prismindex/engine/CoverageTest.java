package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.vectorStats;
import static dev.prismindex.engine.TestRepos.pyFunction;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.engine.IndexProgress.Phase;
import dev.prismindex.index.IndexState;
import dev.prismindex.index.IndexStatus;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lexical documents are committed (and searchable) before the embeddings; an interrupted run
 * leaves a partial semantic coverage that status and answers report; the next run completes it.
 * Also: progress callbacks, and the seam status during runs (READY once a commit exists).
 */
class CoverageTest {

  /**
   * 200 files of 3 chunks: 600 texts, about 19 embedding batches; the interrupting tests embed at
   * 1 ms per text, so progress callbacks (at most every 100 ms) arrive mid-run.
   */
  private static final int FILES = 200;

  @TempDir Path root;

  @BeforeEach
  void corpus() throws Exception {
    for (int f = 0; f < FILES; f++) {
      write(root, "m" + f + ".py", pyFunction("alpha_" + f, "revenue") + pyFunction("beta_" + f,
          "latency") + pyFunction("gamma_" + f, "throughput"));
    }
  }

  @Test
  void anInterruptedRunReportsPartialCoverageAndTheNextRunCompletesIt() throws Exception {
    FakeEmbedder embedder = TestEmbedders.fake().slow(1000);
    List<IndexProgress> seen = new CopyOnWriteArrayList<>();
    List<Object> duringEmbedding = new ArrayList<>();
    try (HybridIndex index = TestRepos.open(root, embedder)) {
      RefreshOptions interrupting = RefreshOptions.INCREMENTAL.withProgress(p -> {
        seen.add(p);
        if (p.phase() == Phase.EMBEDDING && p.chunksEmbedded() >= 10) {
          try {
            // Searchable before the embeddings finish; the last commit is READY.
            duringEmbedding.add(index.status());
            duringEmbedding.add(index.search("alpha_3", SearchOpts.lexical(3)));
          } catch (Exception e) {
            duringEmbedding.add(e);
          }
          throw new IllegalStateException("stop here");
        }
      });
      assertThatThrownBy(() -> index.refresh(interrupting)).hasMessage("stop here");

      IndexStatus during = (IndexStatus) duringEmbedding.get(0);
      assertThat(during.state()).isEqualTo(IndexState.READY);
      assertThat(during.updatedAt()).isNotNull();
      assertThat((List<?>) duringEmbedding.get(1)).isNotEmpty();

      EngineStatus status = index.engineStatus();
      assertThat(status.chunks()).isEqualTo(3L * FILES);
      assertThat(status.chunksEmbedded()).isBetween(10L, 3L * FILES - 1);
      assertThat(status.coverage().complete()).isFalse();
      assertThat(status.coverage().ratio()).isStrictlyBetween(0.0, 1.0);
      assertThat(vectorStats(index).chunksEmbedded()).isEqualTo(status.chunksEmbedded());
      assertThat(index.status().state()).isEqualTo(IndexState.READY);

      SearchResult semantic = index.searchResult("latency", SearchOpts.semantic(5));
      assertThat(semantic.partial()).isTrue();
      assertThat(semantic.coverage()).isEqualTo(status.coverage());
      assertThat(index.searchResult("latency", SearchOpts.hybrid(5)).partial()).isTrue();
      assertThat(index.searchResult("latency", SearchOpts.lexical(5)).partial()).isFalse();

      long before = embedder.documents.get();
      IndexRunStats resumed = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(resumed.added() + resumed.changed()).isZero();
      assertThat(resumed.chunksEmbedded()).isEqualTo(3L * FILES - status.chunksEmbedded());
      assertThat(embedder.documents.get() - before).isEqualTo(resumed.chunksEmbedded());
      assertThat(resumed.committed()).isTrue();
      assertThat(index.engineStatus().coverage().complete()).isTrue();
      assertThat(index.searchResult("latency", SearchOpts.hybrid(5)).partial()).isFalse();
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).committed()).isFalse();
    }
    assertThat(seen).extracting(IndexProgress::phase).startsWith(Phase.WALKING)
        .contains(Phase.INDEXING, Phase.COMMITTING, Phase.EMBEDDING).doesNotContain(Phase.DONE);
  }

  @Test
  void aFailingModelKeepsTheLexicalCommitAndWhatWasEmbedded() throws Exception {
    FakeEmbedder failing = TestEmbedders.fake().failAfter(100);
    try (HybridIndex index = TestRepos.open(root, failing)) {
      assertThatThrownBy(() -> index.refresh(RefreshOptions.INCREMENTAL))
          .isInstanceOfSatisfying(SemanticSearchUnavailableException.class, e ->
              assertThat(e.state())
                  .isEqualTo(SemanticState.MODEL_FAILED))
          .hasMessageStartingWith("embedding model unavailable: embedding model failed");
      EngineStatus status = index.engineStatus();
      assertThat(status.files()).isEqualTo(FILES);
      assertThat(status.chunksEmbedded()).isLessThan(status.chunks());
      assertThat(vectorStats(index).chunksEmbedded()).isEqualTo(status.chunksEmbedded());
      assertThat(index.status().state()).isEqualTo(IndexState.READY);
      assertThat(index.search("gamma_4", SearchOpts.lexical(1))).extracting(Hit::symbol)
          .containsExactly("gamma_4");
    }
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }

  @Test
  void anInterruptedThreadCommitsWhatWasEmbeddedAndThrows() throws Exception {
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake().slow(1000))) {
      Thread caller = Thread.currentThread();
      RefreshOptions interrupting = RefreshOptions.INCREMENTAL.withProgress(p -> {
        if (p.phase() == Phase.EMBEDDING && p.chunksEmbedded() > 0) {
          caller.interrupt();
        }
      });
      try {
        assertThatThrownBy(() -> index.refresh(interrupting))
            .isInstanceOf(InterruptedIOException.class)
            .hasMessageContaining("the next refresh continues");
        assertThat(Thread.interrupted()).isTrue();
      } finally {
        Thread.interrupted();
      }
      EngineStatus status = index.engineStatus();
      assertThat(status.chunksEmbedded()).isPositive().isLessThan(status.chunks());
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }

  @Test
  void withoutEmbeddingTheRunIsLexicalAndCoverageIncomplete() throws Exception {
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false));
      assertThat(stats.chunksEmbedded()).isZero();
      assertThat(index.engineStatus().coverage().chunksEmbedded()).isZero();
      SearchResult r = index.searchResult("latency", SearchOpts.hybrid(5));
      assertThat(r.partial()).isTrue();
      assertThat(r.hits()).isNotEmpty().allSatisfy(h -> assertThat(h.semantic()).isNull());
      assertThat(index.search("latency", SearchOpts.semantic(5))).isEmpty();
    }
  }

  @Test
  void progressReportsFilesAndChunksAndStatusIsBuildingOnlyBeforeTheFirstCommit()
      throws Exception {
    List<IndexProgress> seen = new CopyOnWriteArrayList<>();
    List<IndexState> states = new CopyOnWriteArrayList<>();
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      IndexProgressListener listener = p -> {
        seen.add(p);
        if (p.phase() == Phase.INDEXING) {
          try {
            states.add(index.status().state());
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      };
      index.refresh(RefreshOptions.INCREMENTAL.withProgress(listener));
      assertThat(states).isNotEmpty().containsOnly(IndexState.BUILDING);
      IndexProgress last = seen.get(seen.size() - 1);
      assertThat(last.phase()).isEqualTo(Phase.DONE);
      assertThat(last.filesDone()).isEqualTo(FILES);
      assertThat(last.filesTotal()).isEqualTo(FILES);
      assertThat(last.chunksEmbedded()).isEqualTo(last.chunksToEmbed()).isEqualTo(3L * FILES);
      List<Phase> phases = seen.stream().map(IndexProgress::phase).distinct().toList();
      assertThat(phases).containsExactly(Phase.WALKING, Phase.INDEXING, Phase.COMMITTING,
          Phase.EMBEDDING, Phase.DONE);
      assertThat(seen).extracting(IndexProgress::elapsedMs).isSorted();

      Long committedAt = index.status().updatedAt();
      states.clear();
      write(root, "m0.py", pyFunction("alpha_0", "changed"));
      index.refresh(RefreshOptions.VERIFY.withProgress(listener));
      assertThat(states).isNotEmpty().containsOnly(IndexState.READY);
      assertThat(committedAt).isNotNull();
    }
  }
}
