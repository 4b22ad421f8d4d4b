package dev.prismindex.engine;

import dev.prismindex.repository.SearchMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.internal.semantic.TextSpool;
import java.time.Duration;
import java.util.List;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/** The small value types of the semantic API and their validation. */
class SemanticApiTest {

  @Test
  void coverageAndResults() {
    SemanticCoverage half = new SemanticCoverage(10, 5);
    assertThat(half.ratio()).isEqualTo(0.5);
    assertThat(half.complete()).isFalse();
    assertThat(half.missing()).isEqualTo(5);
    assertThat(new SemanticCoverage(0, 0).ratio()).isEqualTo(1.0);
    assertThat(new SemanticCoverage(0, 0).complete()).isTrue();
    assertThatThrownBy(() -> new SemanticCoverage(3, 4))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new SearchResult(List.of(), SearchMode.HYBRID, half).partial()).isTrue();
    assertThat(new SearchResult(List.of(), SearchMode.LEXICAL, half).partial()).isFalse();
    assertThat(new SearchResult(List.of(), SearchMode.SEMANTIC, new SemanticCoverage(4, 4))
        .partial()).isFalse();
  }

  @Test
  void theErrorAlwaysSaysEmbeddingModelUnavailable() {
    SemanticSearchUnavailableException plain = new SemanticSearchUnavailableException();
    assertThat(plain.getMessage()).isEqualTo(SemanticSearchUnavailableException.MESSAGE)
        .startsWith("embedding model unavailable: ");
    assertThat(plain.state()).isEqualTo(SemanticState.NO_MODEL);
    assertThat(new SemanticSearchUnavailableException(
        SemanticState.MODEL_FAILED, "onnx broke", null).getMessage())
        .isEqualTo("embedding model unavailable: onnx broke");
    assertThat(new SemanticSearchUnavailableException(
        SemanticState.MODEL_FAILED,
        "embedding model unavailable: x", null).getMessage())
        .isEqualTo("embedding model unavailable: x");
  }

  @Test
  void optionsKeepTheirOldConstructorsAndValidateTheNewSettings() {
    java.nio.file.Path root = java.nio.file.Path.of("repo");
    HybridIndexOptions old = new HybridIndexOptions(root, root.resolve(".prism-index"), List.of(),
        List.of(), 1024, false, 2, java.time.Clock.systemUTC());
    assertThat(old.semantic()).isTrue();
    assertThat(old.embedder()).isNull();
    assertThat(old.seamSemanticMode()).isEqualTo(SearchMode.HYBRID);
    assertThat(old.embeddingThreads()).isEqualTo(HybridIndexOptions.DEFAULT_EMBEDDING_THREADS);
    assertThatThrownBy(() -> HybridIndexOptions.builder(root)
        .seamSemanticMode(SearchMode.LEXICAL).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HybridIndexOptions.builder(root).embeddingThreads(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> HybridIndexOptions.builder(root)
        .embeddingCommitInterval(Duration.ofSeconds(-1)).build())
        .isInstanceOf(IllegalArgumentException.class);
    RefreshOptions r = new RefreshOptions(false, true);
    assertThat(r.embed()).isTrue();
    assertThat(r.progress()).isSameAs(IndexProgressListener.NONE);
    assertThat(r.withEmbedding(false).embed()).isFalse();
    assertThat(RefreshOptions.FULL.fullRebuild()).isTrue();
    SearchOpts three = new SearchOpts(5, SearchMode.HYBRID, "src/");
    assertThat(three.fusion()).isEqualTo(Fusion.learned());
    assertThat(three.files().scopes()).containsExactly("src");
    assertThat(SearchOpts.hybrid(3).mode()).isEqualTo(SearchMode.HYBRID);
    assertThat(SearchOpts.semantic(3).mode()).isEqualTo(SearchMode.SEMANTIC);
  }

  @Test
  void theSpoolKeepsTextsWithinItsBudget() {
    TextSpool spool = new TextSpool(10);
    spool.offer(new BytesRef(new byte[] {1}), "abcdef");
    spool.offer(new BytesRef(new byte[] {2}), "ghijkl");
    spool.offer(new BytesRef(new byte[] {3}), "mnop");
    assertThat(spool.get(new BytesRef(new byte[] {1}))).isEqualTo("abcdef");
    assertThat(spool.get(new BytesRef(new byte[] {2}))).isNull();
    assertThat(spool.get(new BytesRef(new byte[] {3}))).isEqualTo("mnop");
    assertThat(spool.size()).isEqualTo(2);
  }
}
