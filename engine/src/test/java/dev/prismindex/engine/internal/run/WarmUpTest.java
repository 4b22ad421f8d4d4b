package dev.prismindex.engine.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.HybridIndex;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine's warm-up: its work once per process, never failing its caller. */
class WarmUpTest {

  @Test
  void aSecondCallReturnsAtOnce() {
    HybridIndex.warmUp();
    long started = System.nanoTime();
    for (int i = 0; i < 1000; i++) {
      HybridIndex.warmUp();
    }
    // The set-up runs git twice: a thousand calls doing it again would take seconds.
    assertThat(System.nanoTime() - started).isLessThan(TimeUnit.MILLISECONDS.toNanos(500));
  }

  @Test
  void itsStepsRunAgainOnTheCallersThreadWithoutThrowing() {
    WarmUp.run();
    WarmUp.run();
  }
}
