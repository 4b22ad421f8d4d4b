package dev.prismindex.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import org.junit.jupiter.api.Test;

class IndexQueryTest {

  private static IndexQuery query(int maxResults) {
    return new IndexQuery("needle", SearchMode.INDEXED_LITERAL, null, maxResults, false,
        AbortSignal.create(), 1_000);
  }

  /** One rule for every backend: before, the in-memory backend refused 0, the engine served 1. */
  @Test
  void aQueryForNoHitsIsRefusedWhereItIsMade() {
    assertThatThrownBy(() -> query(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxResults must be positive: 0");
    assertThatThrownBy(() -> query(-3)).isInstanceOf(IllegalArgumentException.class);
    assertThat(query(1).maxResults()).isEqualTo(1);
  }
}
