package dev.prismindex.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AbstractEmbedderTest {

  /** Embeds every text as the first unit vector. */
  static final class Unit extends AbstractEmbedder {
    Unit(String id, int dimension, Kind kind) {
      super(id, dimension, kind);
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      return texts.stream().map(t -> {
        float[] v = new float[dimension()];
        v[0] = 1;
        return v;
      }).toList();
    }
  }

  @Test
  void theConstantsAreTheOnesGiven() {
    Embedder embedder = new Unit("unit-v1", 3, Embedder.Kind.STATIC);
    assertThat(embedder.id()).isEqualTo("unit-v1");
    assertThat(embedder.dimension()).isEqualTo(3);
    assertThat(embedder.kind()).isEqualTo(Embedder.Kind.STATIC);
    assertThat(embedder.embedQuery("q")).containsExactly(1f, 0f, 0f);
    assertThat(new HashingEmbedder(32).kind()).isEqualTo(Embedder.Kind.STATIC);
    assertThat(new HashingEmbedder(32).dimension()).isEqualTo(32);
  }

  @Test
  void aBlankIdOrANonPositiveDimensionIsRefused() {
    assertThatThrownBy(() -> new Unit(" ", 3, Embedder.Kind.STATIC))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id");
    assertThatThrownBy(() -> new Unit("unit", 0, Embedder.Kind.STATIC))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dimension must be positive: 0");
    assertThatThrownBy(() -> new Unit("unit", 3, null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new HashingEmbedder(8))
        .hasMessage("dimension must be between 16 and 4096");
  }
}
