package dev.prismindex.engine;

import dev.prismindex.engine.internal.run.EmbedPhase;
import static dev.prismindex.engine.IndexInternals.vectorStats;
import static dev.prismindex.engine.TestRepos.pyFunction;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.embed.testing.FakeEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embeddings are cached by the hash of the chunk text: an edit re-embeds only the chunks whose
 * text changed, a revert or a branch switch re-embeds nothing seen before, a text shared by files
 * is embedded once, and unused vectors are pruned when they outgrow the used ones.
 */
class EmbeddingCacheTest {

  @TempDir Path root;

  private static String report(String thirdWord) {
    return pyFunction("monthly_total", "revenue") + pyFunction("weekly_average", "latency")
        + pyFunction("daily_peak", thirdWord) + pyFunction("hourly_rate", "throughput");
  }

  @Test
  void editingOneFunctionReEmbedsExactlyThatChunkAndARevertNothing() throws Exception {
    write(root, "report.py", report("errors"));
    FakeEmbedder embedder = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, embedder)) {
      IndexRunStats cold = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(cold.chunksWritten()).isEqualTo(4);
      assertThat(cold.chunksEmbedded()).isEqualTo(4);
      assertThat(cold.chunksReused()).isZero();
      assertThat(embedder.documents.get()).isEqualTo(4);

      write(root, "report.py", report("warnings"));
      IndexRunStats edit = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(edit.changed()).isEqualTo(1);
      assertThat(edit.chunksWritten()).isEqualTo(4);
      assertThat(edit.chunksEmbedded()).isEqualTo(1);
      assertThat(edit.chunksReused()).isEqualTo(3);
      assertThat(embedder.documents.get()).isEqualTo(5);

      write(root, "report.py", report("errors"));
      IndexRunStats revert = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(revert.changed()).isEqualTo(1);
      assertThat(revert.chunksEmbedded()).isZero();
      assertThat(revert.chunksReused()).isEqualTo(4);
      assertThat(embedder.documents.get()).isEqualTo(5);

      EngineStatus status = index.engineStatus();
      assertThat(status.coverage().complete()).isTrue();
      // The edited version's vector stays as cache.
      assertThat(status.vectors()).isEqualTo(5);
      assertThat(vectorStats(index).unreferencedVectors()).isEqualTo(1);
    }
  }

  @Test
  void aBranchSwitchAndBackReEmbedsNothingSeenBefore() throws Exception {
    write(root, "a/one.py", report("errors"));
    write(root, "a/two.py", pyFunction("cache_evict", "memory"));
    FakeEmbedder embedder = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, embedder)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      long main = embedder.documents.get();
      // "feature" branch: one file rewritten, one deleted, one added.
      write(root, "a/one.py", report("timeouts"));
      Files.delete(root.resolve("a/two.py"));
      write(root, "b/three.py", pyFunction("queue_drain", "backlog"));
      IndexRunStats feature = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(feature.chunksEmbedded()).isEqualTo(2);
      // back to "main"
      write(root, "a/one.py", report("errors"));
      write(root, "a/two.py", pyFunction("cache_evict", "memory"));
      Files.delete(root.resolve("b/three.py"));
      IndexRunStats back = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(back.chunksEmbedded()).isZero();
      assertThat(back.chunksReused()).isEqualTo(5);
      assertThat(embedder.documents.get()).isEqualTo(main + 2);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }

  @Test
  void copiesInOtherFilesHaveVectorsOfTheirOwnAndACopyBackFindsItsVector() throws Exception {
    // The model sees a chunk with its path (EmbedText), so equal chunks of different files have
    // texts of their own; a file copied back after a delete finds its vector again.
    String shared = pyFunction("license_header", "copyright");
    write(root, "x.py", shared);
    write(root, "y.py", shared);
    write(root, "z.py", shared);
    FakeEmbedder embedder = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, embedder)) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.chunksWritten()).isEqualTo(3);
      assertThat(stats.chunksEmbedded()).isEqualTo(3);
      EngineStatus status = index.engineStatus();
      assertThat(status.vectors()).isEqualTo(3);
      assertThat(status.chunksEmbedded()).isEqualTo(3);
      java.nio.file.Files.delete(root.resolve("y.py"));
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "y.py", shared);
      IndexRunStats back = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(back.chunksEmbedded()).isZero();
      assertThat(back.chunksReused()).isEqualTo(1);
      // Semantic search returns every copy, in path order for the equal scores.
      assertThat(index.search("copyright header", SearchOpts.semantic(5)))
          .extracting(Hit::path).containsExactly("x.py", "y.py", "z.py");
    }
  }

  @Test
  void equalTextsOfOneFileAreEmbeddedOnce() throws Exception {
    String twice = pyFunction("license_header", "copyright").repeat(2);
    write(root, "twice.py", twice);
    FakeEmbedder embedder = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, embedder)) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.chunksWritten()).isEqualTo(2);
      assertThat(stats.chunksEmbedded()).isEqualTo(1);
      assertThat(embedder.documents.get()).isEqualTo(1);
      EngineStatus status = index.engineStatus();
      assertThat(status.vectors()).isEqualTo(1);
      assertThat(status.coverage().complete()).isTrue();
    }
  }

  @Test
  void unusedVectorsArePrunedWhenTheyOutgrowTheUsedOnes() throws Exception {
    // About 1 600 distinct line-window chunks (60 files of ~27 windows), then all but 3 deleted.
    for (int f = 0; f < 60; f++) {
      StringBuilder sb = new StringBuilder();
      for (int line = 0; line < 1500; line++) {
        sb.append("file ").append(f).append(" line ").append(line).append(" words\n");
      }
      write(root, "notes/n" + f + ".txt", sb.toString());
    }
    FakeEmbedder embedder = TestEmbedders.fake();
    try (HybridIndex index = TestRepos.open(root, embedder)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      long vectors = index.engineStatus().vectors();
      assertThat(vectors).isGreaterThan(EmbedPhase.PRUNE_SLACK + 100);
      long keptChunks;
      for (int f = 3; f < 60; f++) {
        Files.delete(root.resolve("notes/n" + f + ".txt"));
      }
      IndexRunStats after = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(after.deleted()).isEqualTo(57);
      EngineStatus status = index.engineStatus();
      keptChunks = status.chunks();
      assertThat(status.coverage().complete()).isTrue();
      // The oldest unused vectors went; half as many unused vectors as used ones remain.
      assertThat(vectorStats(index).referencedVectors()).isEqualTo(keptChunks);
      assertThat(vectorStats(index).unreferencedVectors()).isEqualTo(keptChunks / 2);
      assertThat(status.vectors()).isEqualTo(keptChunks + keptChunks / 2);
      assertThat(vectorStats(index).vectors()).isEqualTo(status.vectors());
    }
  }
}
