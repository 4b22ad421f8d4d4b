package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.commitData;
import static dev.prismindex.engine.IndexInternals.vectorStats;
import static dev.prismindex.engine.TestRepos.pyFunction;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.engine.IndexProgress.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A static model ({@link Embedder.Kind#STATIC}) embeds each chunk as the indexer writes it: the
 * vectors are in the lexical commit (one commit, no embedding phase, no file read twice), the
 * embedding cache is kept by chunk text, a failing model keeps the lexical commit, and the answers
 * are those of the same model embedding after the commit.
 */
class StaticTierTest {

  private static final int FILES = 40;

  @TempDir Path root;

  @BeforeEach
  void corpus() throws Exception {
    for (int f = 0; f < FILES; f++) {
      write(root, "m" + f + ".py", pyFunction("alpha_" + f, "revenue")
          + pyFunction("beta_" + f, "latency") + pyFunction("gamma_" + f, "throughput"));
    }
  }

  private static FakeEmbedder statik() {
    return TestEmbedders.fake().kind(Embedder.Kind.STATIC);
  }

  @Test
  void aColdRunCommitsTheVectorsWithTheLexicalDocumentsInOneCommit() throws Exception {
    FakeEmbedder model = statik();
    Set<Phase> phases = ConcurrentHashMap.newKeySet();
    try (HybridIndex index = TestRepos.open(root, model)) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL.withProgress(
          p -> phases.add(p.phase())));
      assertThat(stats.chunksWritten()).isEqualTo(3L * FILES);
      assertThat(stats.chunksEmbedded()).isEqualTo(3L * FILES);
      // No embedding phase: the lexical commit holds the vectors.
      assertThat(phases).contains(Phase.COMMITTING).doesNotContain(Phase.EMBEDDING);
      EngineStatus status = index.engineStatus();
      assertThat(status.coverage().complete()).isTrue();
      assertThat(status.vectors()).isEqualTo(3L * FILES);
      assertThat(status.embedderId()).isEqualTo(FakeEmbedder.ID);
      assertThat(vectorStats(index).chunksEmbedded()).isEqualTo(status.chunksEmbedded());
      assertThat(commitData(index)).containsEntry("prism.embedder.kind", "static");
      assertThat(status.tiers()).containsExactly(new SemanticTier(FakeEmbedder.ID,
          Embedder.Kind.STATIC, FakeEmbedder.DIMENSION, 3L * FILES, 3L * FILES,
          SemanticTier.State.READY));
      assertThat(index.searchResult("alpha_7 revenue", SearchOpts.semantic(5)).partial())
          .isFalse();
    }
  }

  @Test
  void aRefreshWithoutTheEmbeddingPhaseStillCoversWhatItWrites() throws Exception {
    try (HybridIndex index = TestRepos.open(root, statik())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "m3.py", pyFunction("delta_3", "backlog"));
      write(root, "new.py", pyFunction("epsilon", "jitter"));
      IndexRunStats scoped = index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false)
          .withScope(Set.of("m3.py", "new.py")));
      assertThat(scoped.chunksEmbedded()).isEqualTo(2);
      EngineStatus status = index.engineStatus();
      assertThat(status.coverage().complete()).isTrue();
      assertThat(vectorStats(index).chunksEmbedded()).isEqualTo(status.chunksEmbedded());
      assertThat(vectorStats(index).vectors()).isEqualTo(status.vectors());
      assertThat(index.search("epsilon jitter", SearchOpts.semantic(1)).get(0).path())
          .isEqualTo("new.py");
    }
  }

  @Test
  void theEmbeddingCacheIsKeptByChunkText() throws Exception {
    String before = Files.readString(root.resolve("m5.py"));
    try (HybridIndex index = TestRepos.open(root, statik())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "m5.py", pyFunction("alpha_5", "revenue") + pyFunction("zeta", "drift"));
      IndexRunStats edit = index.refresh(RefreshOptions.VERIFY);
      assertThat(edit.chunksEmbedded()).as("only the new text").isEqualTo(1);
      assertThat(edit.chunksReused()).isEqualTo(1);
      write(root, "m5.py", before);
      IndexRunStats revert = index.refresh(RefreshOptions.VERIFY);
      assertThat(revert.chunksEmbedded()).as("every text of the revert has a vector").isZero();
      assertThat(revert.chunksReused()).isEqualTo(3);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }

  @Test
  void aModelThatFailsKeepsTheLexicalCommitAndTheNextRunCompletesTheVectors() throws Exception {
    long embeddedBefore;
    try (HybridIndex index = TestRepos.open(root, statik().failAfter(25))) {
      assertThatThrownBy(() -> index.refresh(RefreshOptions.INCREMENTAL))
          .isInstanceOf(SemanticSearchUnavailableException.class)
          .satisfies(e -> assertThat(((SemanticSearchUnavailableException) e).state())
              .isEqualTo(SemanticState.MODEL_FAILED));
      EngineStatus status = index.engineStatus();
      assertThat(status.files()).isEqualTo(FILES);
      // Two workers embed side by side: about 25 texts got their vector before the failure.
      assertThat(status.chunksEmbedded()).isBetween(20L, 30L);
      assertThat(vectorStats(index).chunksEmbedded()).isEqualTo(status.chunksEmbedded());
      assertThat(status.tiers().get(0).state()).isEqualTo(SemanticTier.State.PARTIAL);
      assertThat(index.search("beta_9", SearchOpts.lexical(1))).isNotEmpty();
      embeddedBefore = status.chunksEmbedded();
    }
    try (HybridIndex index = TestRepos.open(root, statik())) {
      IndexRunStats next = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(next.chunksEmbedded()).isEqualTo(3L * FILES - embeddedBefore);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
      assertThat(vectorStats(index).chunksEmbedded()).isEqualTo(3L * FILES);
    }
  }

  @Test
  void answersEqualThoseOfTheSameModelEmbeddingAfterTheCommit() throws Exception {
    Path other = Files.createDirectories(root.resolveSibling(root.getFileName() + "-deferred"));
    for (int f = 0; f < FILES; f++) {
      Files.copy(root.resolve("m" + f + ".py"), other.resolve("m" + f + ".py"));
    }
    try (HybridIndex inline = TestRepos.open(root, statik());
        HybridIndex deferred = TestRepos.open(other, TestEmbedders.fake())) {
      inline.refresh(RefreshOptions.INCREMENTAL);
      deferred.refresh(RefreshOptions.INCREMENTAL);
      for (String q : List.of("revenue report", "gamma_12", "latency of a value", "throughput")) {
        // The same hits with the same cosines; hits of equal cosine may come in another order
        // (the documents lie in another order in the index), and so may fused ranks, which is why
        // HYBRID is compared by its hits only; every chunk is a hit, so no tie is cut by the limit.
        assertThat(sorted(inline.search(q, SearchOpts.semantic(200)))).as(q)
            .isEqualTo(sorted(deferred.search(q, SearchOpts.semantic(200))));
        assertThat(locations(inline.search(q, SearchOpts.hybrid(200)))).as(q)
            .isEqualTo(locations(deferred.search(q, SearchOpts.hybrid(200))));
      }
    }
  }

  private static List<String> locations(List<Hit> hits) {
    return hits.stream().map(h -> h.path() + ":" + h.line()).sorted().toList();
  }

  private static List<String> sorted(List<Hit> hits) {
    return hits.stream().sorted(Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(Hit::path).thenComparingInt(Hit::line))
        .map(h -> h.path() + ":" + h.line() + " " + h.score()).toList();
  }

  @Test
  void aLexicalOnlyIndexGetsItsVectorsFromTheFirstRunThatEmbeds() throws Exception {
    try (HybridIndex index = TestRepos.open(root, statik())) {
      index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false).withLexicalOnly());
      assertThat(index.engineStatus().chunksEmbedded()).isZero();
      index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false));
      assertThat(index.engineStatus().chunksEmbedded()).as("a run that does not embed")
          .isZero();
      IndexRunStats keyed = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(keyed.chunksEmbedded()).isEqualTo(3L * FILES);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }

  @Test
  void anIndexIsOpenedWithItsOwnModelWhenTheOptionsNameNone() throws Exception {
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake("model-a", 32))) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
    // model-a is no provider of the class path: the default (the test provider) is not the
    // index's model, and status says so per tier.
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).build())) {
      EngineStatus status = index.engineStatus();
      assertThat(status.semantic()).isEqualTo(SemanticState.MODEL_MISMATCH);
      assertThat(status.tiers()).singleElement().satisfies(t -> {
        assertThat(t.model()).isEqualTo("model-a");
        assertThat(t.state()).isEqualTo(SemanticTier.State.UNAVAILABLE);
      });
    }
    // An index of the test provider's model is opened with it.
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root)
        .embedder(TestEmbedders.fake()).build())) {
      index.refresh(RefreshOptions.FULL);
    }
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).build())) {
      assertThat(index.engineStatus().semantic()).isEqualTo(SemanticState.AVAILABLE);
      assertThat(index.engineStatus().tiers().get(0).state())
          .isEqualTo(SemanticTier.State.READY);
    }
  }
}
