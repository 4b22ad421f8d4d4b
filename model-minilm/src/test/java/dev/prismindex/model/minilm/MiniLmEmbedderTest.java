package dev.prismindex.model.minilm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest {

  private final Embedder embedder = new MiniLmEmbedderProvider().create();

  @Test
  void isFoundThroughServiceLoaderWithoutLoadingTheModel() {
    EmbedderProvider provider = EmbedderProvider.find("all-minilm-l6-v2-q").orElseThrow();
    Embedder found = provider.create();
    assertThat(found.id()).isEqualTo("all-minilm-l6-v2-q");
    assertThat(found.dimension()).isEqualTo(384);
    assertThat(EmbedderProvider.findDefault()).isPresent();
  }

  @Test
  void vectorsHaveTheDeclaredDimensionAndUnitLength() {
    List<float[]> vectors = embedder.embed(List.of("parse a duration string", "int x = 1;", ""));
    assertThat(vectors).hasSize(3);
    for (float[] v : vectors) {
      assertThat(v).hasSize(384);
      assertThat(norm(v)).isCloseTo(1.0, within(1e-4));
    }
  }

  @Test
  void relatedTextsAreCloserThanUnrelatedOnes() {
    List<float[]> v = embedder.embed(List.of(
        "read the configuration file from disk",
        "def load_config(path):\n    with open(path) as f:\n        return yaml.safe_load(f)",
        "render a bar chart of monthly sales"));
    assertThat(dot(v.get(0), v.get(1))).isGreaterThan(dot(v.get(0), v.get(2)));
  }

  @Test
  void embeddingIsDeterministicAndQueriesUseTheSameSpace() {
    float[] a = embedder.embed(List.of("stale index check")).get(0);
    float[] b = embedder.embedQuery("stale index check");
    assertThat(a).containsExactly(b);
  }

  @Test
  void loneSurrogatesAndBlankTextDoNotFail() {
    List<float[]> vectors = embedder.embed(List.of("bad \uD800 text", "   ", "emoji \uD83D\uDE00 ok"));
    assertThat(vectors).hasSize(3).allSatisfy(v -> assertThat(v).hasSize(384));
    assertThat(MiniLmEmbedder.sanitize("a\uDC00b")).isEqualTo("a\uFFFDb");
    assertThat(MiniLmEmbedder.sanitize("\uD83D\uDE00")).isEqualTo("\uD83D\uDE00");
    assertThat(MiniLmEmbedder.sanitize("")).isEqualTo(MiniLmEmbedder.BLANK_STAND_IN);
  }

  @Test
  void emptyBatchNeedsNoModel() {
    assertThat(embedder.embed(List.of())).isEmpty();
  }

  private static double norm(float[] v) {
    return Math.sqrt(dot(v, v));
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }
}
