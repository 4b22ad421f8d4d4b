package dev.prismindex.engine.internal.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
}
