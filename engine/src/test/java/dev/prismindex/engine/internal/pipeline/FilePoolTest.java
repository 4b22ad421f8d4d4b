package dev.prismindex.engine.internal.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The worker pool of an indexing run. */
class FilePoolTest {

  private static List<String> paths(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("f" + i);
    }
    return out;
  }

  @Test
  void everyPathIsProcessedOnce() throws IOException {
    Set<String> seen = ConcurrentHashMap.newKeySet();
    List<String> paths = paths(3_000);
    FilePool.forEach(paths, 2, p -> assertThat(seen.add(p)).isTrue());
    assertThat(seen).containsExactlyInAnyOrderElementsOf(paths);
  }

  @Test
  void noPathIsStartedAfterAFailure() {
    // A store refusing every write (a cluster past its retries) fails the first task; before,
    // every remaining path was still run (and waited out its own retries).
    Set<String> ran = ConcurrentHashMap.newKeySet();
    assertThatThrownBy(() -> FilePool.forEach(paths(100), 1, p -> {
      ran.add(p);
      throw new IOException("refused: " + p);
    })).isInstanceOf(IOException.class).hasMessage("refused: f0");
    assertThat(ran).containsExactly("f0");
  }

  @Test
  void withSeveralWorkersOnlyThePathsInFlightRun() {
    Set<String> ran = ConcurrentHashMap.newKeySet();
    assertThatThrownBy(() -> FilePool.forEach(paths(500), 2, p -> {
      ran.add(p);
      throw new IllegalStateException("broken");
    })).isInstanceOf(IllegalStateException.class);
    assertThat(ran.size()).isLessThanOrEqualTo(2 * 4 + 1);
  }
}
