package dev.prismindex.embed.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.embed.EmbeddingException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FakeEmbedderTest {

  private static double dot(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }

  @Test
  void vectorsAreDeterministicUnitLengthAndCloseForSharedWords() {
    FakeEmbedder embedder = new FakeEmbedder();
    float[] a = embedder.vector("parseDuration reads a duration");
    assertThat(a).hasSize(FakeEmbedder.DIMENSION).containsExactly(
        new FakeEmbedder().vector("parseDuration reads a duration"));
    assertThat(dot(a, a)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    float[] near = embedder.vector("the duration parser");
    float[] far = embedder.vector("quokka marsupial habitat");
    assertThat(dot(a, near)).isGreaterThan(dot(a, far));
    assertThat(embedder.vector("")[0]).isEqualTo(1f);
  }

  @Test
  void wordsSplitCamelCaseAndDropSingleCharacters() {
    assertThat(FakeEmbedder.words("parseDuration(x, HTTP_client) a"))
        .containsExactly("parse", "duration", "http", "client");
  }

  @Test
  void countsFailsAndTakesItsConfiguration() {
    FakeEmbedder embedder = new FakeEmbedder("model-b", 32).failAfter(2);
    assertThat(embedder.id()).isEqualTo("model-b");
    assertThat(embedder.dimension()).isEqualTo(32);
    assertThat(embedder.embed(List.of("a b", "c d"))).hasSize(2);
    assertThat(embedder.embedQuery("q")).hasSize(32);
    assertThat(embedder.documents).hasValue(2);
    assertThat(embedder.queries).hasValue(1);
    assertThatThrownBy(() -> embedder.embed(List.of("e f")))
        .isInstanceOf(EmbeddingException.class).hasMessageContaining("test failure after 2");

    FakeEmbedder tokens = new FakeEmbedder().tokenizer(text -> List.of(text));
    assertThat(tokens.vector("A b")).isNotEqualTo(new FakeEmbedder().vector("A b"));
  }
}
