package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.testing.FakeEmbedder;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model id and dimension are recorded with the vectors; an index built with one model refuses
 * semantic search in a process with another (saying how to rebuild) and keeps answering lexical
 * queries; a full rebuild re-embeds with the new model.
 */
class ModelPinningTest {

  @TempDir Path root;

  @BeforeEach
  void corpus() throws Exception {
    write(root, "src/report.py", TestRepos.pyFunction("monthly_total", "revenue")
        + TestRepos.pyFunction("weekly_average", "latency"));
    write(root, "src/notes.txt", "the weekly latency report is generated on mondays\n");
  }

  @Test
  void anotherModelIsRefusedWithTheRebuildCommandAndLexicalKeepsWorking() throws Exception {
    FakeEmbedder a = TestEmbedders.fake("model-a", 64);
    try (HybridIndex index = TestRepos.open(root, a)) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.chunksEmbedded()).isPositive();
      EngineStatus status = index.engineStatus();
      assertThat(status.embedderId()).isEqualTo("model-a");
      assertThat(status.embedderDimension()).isEqualTo(64);
      assertThat(status.coverage().complete()).isTrue();
      assertThat(status.semantic()).isEqualTo(SemanticState.AVAILABLE);
    }
    String expected = "embedding model unavailable: index was built with model model-a (dim 64);"
        + " this process has model-b (dim 32); rebuild with `prism-index index --full`"
        + " (RefreshOptions.FULL)";
    FakeEmbedder b = TestEmbedders.fake("model-b", 32);
    try (HybridIndex index = TestRepos.open(root, b)) {
      for (SearchMode mode : List.of(SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        assertThatThrownBy(() -> index.search("weekly latency", new SearchOpts(5, mode, null)))
            .isInstanceOfSatisfying(SemanticSearchUnavailableException.class,
                e -> assertThat(e.state()).isEqualTo(SemanticState.MODEL_MISMATCH))
            .hasMessage(expected);
      }
      assertThat(index.search("weekly_average", SearchOpts.lexical(5))).isNotEmpty()
          .first().extracting(Hit::symbol).isEqualTo("weekly_average");
      assertThat(index.capabilities().semantic()).isFalse();
      assertThatThrownBy(() -> index.search(new IndexQuery("latency", SearchMode.SEMANTIC, null,
          5, false, AbortSignal.create(), 1000)))
          .isInstanceOf(SemanticSearchUnavailableException.class).hasMessage(expected);
      EngineStatus status = index.engineStatus();
      assertThat(status.semantic()).isEqualTo(SemanticState.MODEL_MISMATCH);
      assertThat(status.semanticMessage()).isEqualTo(expected);
      assertThat(b.queries.get()).isZero();

      // An incremental run with the other model embeds nothing and keeps the pin.
      write(root, "src/more.py", TestRepos.pyFunction("yearly_peak", "throughput"));
      IndexRunStats incremental = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(incremental.added()).isEqualTo(1);
      assertThat(incremental.chunksEmbedded()).isZero();
      assertThat(b.documents.get()).isZero();
      assertThat(index.engineStatus().embedderId()).isEqualTo("model-a");
      assertThat(index.engineStatus().coverage().complete()).isFalse();

      // The documented fix: a full rebuild drops model-a's vectors and embeds with model-b.
      IndexRunStats full = index.refresh(RefreshOptions.FULL);
      assertThat(full.chunksEmbedded()).isEqualTo(b.documents.get()).isPositive();
      status = index.engineStatus();
      assertThat(status.embedderId()).isEqualTo("model-b");
      assertThat(status.embedderDimension()).isEqualTo(32);
      assertThat(status.coverage().complete()).isTrue();
      assertThat(status.vectors()).isEqualTo(full.chunksEmbedded());
      assertThat(index.search("weekly latency", SearchOpts.hybrid(5))).isNotEmpty();
      assertThat(index.capabilities().semantic()).isTrue();
    }
  }

  @Test
  void sameIdWithAnotherDimensionIsAMismatchToo() throws Exception {
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake("same", 64))) {
      index.refresh(RefreshOptions.INCREMENTAL);
    }
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake("same", 48))) {
      assertThat(index.engineStatus().semantic()).isEqualTo(SemanticState.MODEL_MISMATCH);
      assertThatThrownBy(() -> index.search("x", SearchOpts.semantic(5)))
          .hasMessageContaining("model same (dim 64); this process has same (dim 48)");
    }
  }

  @Test
  void aFullRebuildWithTheSameModelReusesEveryVector() throws Exception {
    FakeEmbedder a = TestEmbedders.fake("model-a", 64);
    try (HybridIndex index = TestRepos.open(root, a)) {
      long first = index.refresh(RefreshOptions.INCREMENTAL).chunksEmbedded();
      IndexRunStats full = index.refresh(RefreshOptions.FULL);
      assertThat(full.chunksEmbedded()).isZero();
      assertThat(full.chunksReused()).isEqualTo(full.chunksWritten()).isPositive();
      assertThat(a.documents.get()).isEqualTo(first);
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }

  @Test
  void withoutAModelOnTheClassPathTheIndexIsLexicalOnly() throws Exception {
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    // A context class loader that sees no service files: EmbedderProvider.findDefault() is empty.
    Thread.currentThread().setContextClassLoader(new ClassLoader(null) {});
    try (HybridIndex index = TestRepos.open(root)) {
      Thread.currentThread().setContextClassLoader(previous);
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.chunksEmbedded()).isZero();
      assertThat(stats.chunksWritten()).isPositive();
      for (SearchMode mode : List.of(SearchMode.SEMANTIC, SearchMode.HYBRID)) {
        assertThatThrownBy(() -> index.search("latency", new SearchOpts(5, mode, null)))
            .isInstanceOfSatisfying(SemanticSearchUnavailableException.class,
                e -> assertThat(e.state()).isEqualTo(SemanticState.NO_MODEL))
            .hasMessage(SemanticSearchUnavailableException.MESSAGE)
            .hasMessageStartingWith("embedding model unavailable: ");
      }
      assertThat(index.search("latency", SearchOpts.lexical(5))).isNotEmpty();
      assertThat(index.capabilities().semantic()).isFalse();
      EngineStatus status = index.engineStatus();
      assertThat(status.semantic()).isEqualTo(SemanticState.NO_MODEL);
      assertThat(status.embedderId()).isNull();
      assertThat(status.coverage().chunksEmbedded()).isZero();
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
    // A process with a model later embeds the whole backlog.
    try (HybridIndex index = TestRepos.open(root, TestEmbedders.fake())) {
      assertThat(index.engineStatus().semantic()).isEqualTo(SemanticState.AVAILABLE);
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.committed()).isTrue();
      assertThat(stats.chunksEmbedded()).isPositive();
      assertThat(index.engineStatus().coverage().complete()).isTrue();
    }
  }
}
