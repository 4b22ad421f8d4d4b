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
  void theShareOfDocumentedTargetsIsAShare() {
    for (String bad : List.of("1.5", "-0.5", "half")) {
      assertThatThrownBy(() -> RankerTraining.main(new String[] {"collect", "--documented", bad}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--documented wants");
    }
    assertThatThrownBy(() -> RankerTraining.main(new String[] {"collect", "--documented", "0.6",
        "--rest-of-doc", "0.6"})).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--rest-of-doc wants a share from 0 to 1 less --documented's");
  }
}
