package dev.prismindex.engine.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The engine's warm-up: its work once per process, whoever asks first. */
class WarmUpTest {

  @Test
  void ofCallsRacingForOneFlagExactlyOneRunsTheWarmUp() throws Exception {
    AtomicBoolean started = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Callable<Boolean>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        calls.add(() -> WarmUp.once(started));
      }
      int ran = 0;
      for (Future<Boolean> f : pool.invokeAll(calls)) {
        ran += f.get() ? 1 : 0;
      }
      assertThat(ran).isEqualTo(1);
      assertThat(WarmUp.once(started)).as("a later call").isFalse();
    } finally {
      pool.shutdownNow();
    }
  }
}
