package dev.prismindex.engine.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.HybridIndex;
import org.junit.jupiter.api.Test;

/** The engine's warm-up: its work once per process, never failing its caller. */
class WarmUpTest {

  @Test
  void runsOncePerProcess() {
    HybridIndex.warmUp();
    assertThat(WarmUp.once()).isFalse();
    HybridIndex.warmUp();
    assertThat(WarmUp.once()).isFalse();
  }

  @Test
  void itsStepsRunAgainOnTheCallersThreadWithoutThrowing() {
    WarmUp.run();
    WarmUp.run();
  }
}
