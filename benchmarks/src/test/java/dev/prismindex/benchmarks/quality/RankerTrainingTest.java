package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The options of {@code scripts/train-ranker} ({@link RankerTraining} and its collect step). */
class RankerTrainingTest {

  @Test
  void theFitsOptionsRefuseWhatWouldWriteWeightsThatRankNothing() {
    assertThat(RankerTraining.atLeastZero(Map.of(), "l2", 0.001)).isEqualTo(0.001);
    assertThat(RankerTraining.atLeastZero(Map.of("offset", "10"), "offset", 0)).isEqualTo(10);
    for (String bad : List.of("-1", "NaN", "Infinity", "ten", "")) {
      assertThatThrownBy(() -> RankerTraining.atLeastZero(Map.of("l2", bad), "l2", 0.001))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("train-ranker: --l2 wants a number >= 0, not " + bad);
    }
  }

  @Test
  void aSeededShareOfTheTargetsKeepsItsDocs() {
    List<Integer> queries = java.util.stream.IntStream.range(0, 1000).boxed().toList();
    assertThat(RankerCollection.toBlank(queries, 0, 38)).isEqualTo(queries);
    assertThat(RankerCollection.toBlank(queries, 1, 38)).isEmpty();
    List<Integer> half = RankerCollection.toBlank(queries, 0.5, 38);
    assertThat(half).hasSizeBetween(450, 550).isSorted()
        .isEqualTo(RankerCollection.toBlank(queries, 0.5, 38))
        .isNotEqualTo(RankerCollection.toBlank(queries, 0.5, 39));
  }

  @Test
  void theShareOfDocumentedTargetsIsAShare() {
    for (String bad : List.of("1.5", "-0.5", "half")) {
      assertThatThrownBy(() -> RankerTraining.main(new String[] {"collect", "--documented", bad}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--documented wants");
    }
  }
}
