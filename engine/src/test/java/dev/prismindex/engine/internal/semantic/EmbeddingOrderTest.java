package dev.prismindex.engine.internal.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

class EmbeddingOrderTest {

  @Test
  void libraryFilesComeBeforeTestsExamplesAndBenchmarksEachInPathOrder() {
    Map<String, Map<BytesRef, Integer>> backlog = new TreeMap<>();
    for (String path : List.of("src/test/java/a/FooTest.java", "src/main/java/a/Foo.java",
        "examples/demo.py", "pkg/util.go", "pkg/util_test.go", "benches/run.rs", "lib/z.ts")) {
      backlog.put(path, Map.of(new BytesRef(path), 1));
    }
    List<String> order = new ArrayList<>();
    for (var e : EmbeddingRun.libraryFirst(backlog)) {
      order.add(e.getKey());
    }
    assertThat(order).containsExactly("lib/z.ts", "pkg/util.go", "src/main/java/a/Foo.java",
        "benches/run.rs", "examples/demo.py", "pkg/util_test.go", "src/test/java/a/FooTest.java");
  }

  @Test
  void batchesHoldNeighboursByLengthInAStableDeterministicOrder() {
    Random random = new Random(3);
    List<EmbeddingRun.Pending> window = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      String text = "x".repeat(1 + random.nextInt(40)) + "#" + i;
      window.add(new EmbeddingRun.Pending(
          new BytesRef(text.getBytes(StandardCharsets.UTF_8)), text, 1));
    }
    List<List<EmbeddingRun.Pending>> batches = EmbeddingRun.batches(window);
    assertThat(batches).hasSize(4);
    assertThat(batches.subList(0, 3)).allSatisfy(b -> assertThat(b).hasSize(EmbeddingRun.BATCH));
    List<EmbeddingRun.Pending> flat = new ArrayList<>();
    batches.forEach(flat::addAll);
    assertThat(flat).containsExactlyInAnyOrderElementsOf(window);
    for (int i = 1; i < flat.size(); i++) {
      int prev = flat.get(i - 1).text().length();
      int cur = flat.get(i).text().length();
      assertThat(prev).isLessThanOrEqualTo(cur);
      if (prev == cur) { // equal lengths keep the window's order
        assertThat(window.indexOf(flat.get(i - 1))).isLessThan(window.indexOf(flat.get(i)));
      }
    }
    assertThat(EmbeddingRun.batches(new ArrayList<>(window))).isEqualTo(batches);
    assertThat(window).isNotEqualTo(flat); // the window itself is not reordered in place
  }
}
