package dev.prismindex.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HashingEmbedderTest {

  private final HashingEmbedder embedder = new HashingEmbedder();

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
    }
    return dot;
  }

  @Test
  void idAndDimensionAreConstantsAndVectorsAreUnitLength() {
    assertThat(embedder.id()).isEqualTo("hashing-v1-256");
    assertThat(new HashingEmbedder(64).id()).isEqualTo("hashing-v1-64");
    List<float[]> vectors = embedder.embed(List.of("class JsonParser { parseValue() }", "x = 1"));
    for (float[] vector : vectors) {
      assertThat(vector).hasSize(256);
      assertThat(cosine(vector, vector)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    }
    assertThatThrownBy(() -> new HashingEmbedder(8)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void isDeterministicAndGivesTheZeroVectorForTextWithoutFeatures() {
    assertThat(embedder.embedQuery("parse json")).isEqualTo(embedder.embedQuery("parse json"));
    assertThat(embedder.embedQuery("!!! ... ;")).containsOnly(0f);
  }

  @Test
  void splitsIdentifiersSoThatTheirPartsMatchWords() {
    float[] query = embedder.embedQuery("parse json value");
    double camel = cosine(query, embedder.embedQuery("Value parseJSONValue(String text)"));
    double snake = cosine(query, embedder.embedQuery("def parse_json_value(text):"));
    double unrelated = cosine(query, embedder.embedQuery("class HttpServer { void serve() }"));
    assertThat(camel).isGreaterThan(0.4).isGreaterThan(unrelated + 0.3);
    assertThat(snake).isGreaterThan(0.4).isGreaterThan(unrelated + 0.3);
    assertThat(cosine(embedder.embedQuery("HTTPServer"), embedder.embedQuery("http server")))
        .isGreaterThan(0.5);
    assertThat(cosine(embedder.embedQuery("utf8Decoder"), embedder.embedQuery("utf 8 decoder")))
        .isGreaterThan(0.5);
  }
}
