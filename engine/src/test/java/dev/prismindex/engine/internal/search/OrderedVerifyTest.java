package dev.prismindex.engine.internal.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.AbortSignal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class OrderedVerifyTest {

  /** Files {@code f000..}: file i has i % 4 matches; some are slow, so runs finish out of order. */
  private static List<String> paths(int n) {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      paths.add(String.format("f%03d", i));
    }
    return paths;
  }

  private static final Set<String> THREADS_SEEN = ConcurrentHashMap.newKeySet();

  private static OrderedVerify.Checks<String> checks() {
    return () -> (path, notSearched) -> {
      THREADS_SEEN.add(Thread.currentThread().getName());
      int i = Integer.parseInt(path.substring(1));
      if (i % 7 == 0) {
        LockSupport.parkNanos(2_000_000); // a slow file: later runs finish first
      }
      if (i % 10 == 3) {
        notSearched.merge("binary", 1, Integer::sum);
        return List.of();
      }
      List<String> matches = new ArrayList<>();
      for (int m = 0; m < i % 4; m++) {
        matches.add(path + ":" + m);
      }
      return matches;
    };
  }

  private static List<String> sequential(List<String> paths) {
    List<String> out = new ArrayList<>();
    OrderedVerify.FileCheck<String> check = checks().create();
    for (String p : paths) {
      out.addAll(check.check(p, new TreeMap<>()));
    }
    return out;
  }

  @Test
  void filesAreHandedOverInPathOrderWhateverOrderTheyAreVerifiedIn() throws IOException {
    List<String> paths = paths(400);
    for (int threads : new int[] {1, 2, 4}) {
      List<String> out = new ArrayList<>();
      List<String> handed = new ArrayList<>();
      Map<String, Integer> notSearched = new TreeMap<>();
      boolean all = OrderedVerify.run(paths, checks(), notSearched, AbortSignal.create(),
          (path, matches) -> {
            handed.add(path);
            out.addAll(matches);
            return true;
          }, threads);
      assertThat(all).isTrue();
      assertThat(handed).as("threads %d", threads).isEqualTo(paths);
      assertThat(out).as("threads %d", threads).isEqualTo(sequential(paths));
      assertThat(notSearched).isEqualTo(Map.of("binary", 40));
    }
    assertThat(THREADS_SEEN).contains("prism-index-verify");
  }

  @Test
  void aStopHandsOverNothingAfterItAndCountsOnlyTheFilesHandedOver() throws IOException {
    List<String> paths = paths(400);
    List<String> handed = new ArrayList<>();
    Map<String, Integer> notSearched = new TreeMap<>();
    boolean all = OrderedVerify.run(paths, checks(), notSearched, AbortSignal.create(),
        (path, matches) -> {
          handed.add(path);
          return !path.equals("f123");
        }, 4);
    assertThat(all).isFalse();
    assertThat(handed).isEqualTo(paths.subList(0, 124));
    // f003, f013, ..., f123: the 13 files not searched up to the stop, none after it.
    assertThat(notSearched).isEqualTo(Map.of("binary", 13));
  }

  @Test
  void anAbortedSearchStops() throws IOException {
    AbortSignal signal = AbortSignal.create();
    List<String> handed = new ArrayList<>();
    boolean all = OrderedVerify.run(paths(400), checks(), new TreeMap<>(), signal,
        (path, matches) -> {
          handed.add(path);
          if (handed.size() == 50) {
            signal.abort();
          }
          return true;
        }, 4);
    assertThat(all).isFalse();
    assertThat(handed).hasSize(50);
  }

  @Test
  void aFailingCheckFailsTheSearchWithItsOwnException() {
    // A file far into the list fails (a worker or the calling thread verifies it): the failure
    // reaches the caller as it was thrown, not wrapped, lost or waited on for ever.
    OrderedVerify.Checks<String> failing = () -> (path, notSearched) -> {
      if (path.equals("f321")) {
        throw new IllegalStateException("cannot read " + path);
      }
      return List.of(path);
    };
    for (int threads : new int[] {1, 2, 4}) {
      List<String> handed = new ArrayList<>();
      assertThatThrownBy(() -> OrderedVerify.run(paths(400), failing, new TreeMap<>(),
          AbortSignal.create(), (path, matches) -> handed.addAll(matches), threads))
          .isInstanceOf(IllegalStateException.class).hasMessage("cannot read f321");
      assertThat(handed).as("threads %d", threads).doesNotContain("f321", "f399")
          .startsWith("f000", "f001");
    }
  }
}
