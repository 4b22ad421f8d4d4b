package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.benchmarks.quality.Definition.Kind;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.SearchMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What counts as finding a target, and which paths are library source. */
class GroundTruthTest {

  private static final Definition TARGET = new Definition("src/time/timeout.rs", Language.RUST,
      Kind.FUNCTION, "timeout", 82, 80, 93, true, "/// Requires a future.", List.of());

  private static Hit hit(String path, int line, int endLine) {
    return new Hit(path, line, endLine, 0, "x", 0.5, SearchMode.HYBRID, "rust", null, null, null,
        null);
  }

  @Test
  void aHitFindsTheTargetOnlyWhenItsLineIsInsideTheDefinition() {
    assertThat(GroundTruth.finds("src/time/timeout.rs", 80, TARGET)).isTrue();
    assertThat(GroundTruth.finds("src/time/timeout.rs", 93, TARGET)).isTrue();
    // The blanked doc comment above, or the next definition: the right file, the wrong place.
    assertThat(GroundTruth.finds("src/time/timeout.rs", 75, TARGET)).isFalse();
    assertThat(GroundTruth.finds("src/time/timeout.rs", 94, TARGET)).isFalse();
    assertThat(GroundTruth.finds("src/time/other.rs", 85, TARGET)).isFalse();
    assertThat(GroundTruth.rightFileWrongPlace("src/time/timeout.rs", 75, TARGET)).isTrue();
    assertThat(GroundTruth.rightFileWrongPlace("src/time/other.rs", 75, TARGET)).isFalse();
  }

  @Test
  void aChunkThatOverlapsTheTargetDoesNotCountWhenItsLineIsOutside() {
    List<Hit> hits = List.of(hit("src/time/timeout.rs", 70, 120), hit("tests/t.rs", 1, 5),
        hit("src/time/timeout.rs", 82, 93));
    assertThat(GroundTruth.rank(hits, TARGET)).isEqualTo(3);
    assertThat(GroundTruth.rank(hits.subList(0, 2), TARGET)).isZero();
  }

  @Test
  void libraryPathsExcludeTestsExamplesBenchesDocsAndTestFiles() {
    assertThat(LibraryPaths.isLibrary("toolz/itertoolz.py")).isTrue();
    assertThat(LibraryPaths.isLibrary("src/runtime/task/list.rs")).isTrue();
    assertThat(LibraryPaths.isLibrary("command.go")).isTrue();
    assertThat(LibraryPaths.isLibrary("java.base/java/util/List.java")).isTrue();
    for (String p : List.of("toolz/tests/test_itertoolz.py", "src/runtime/tests/queue.rs",
        "tests/io_read.rs", "bench/curry.py", "benches/x.rs", "benchmark/compression.ts",
        "example/index.ts", "examples/a.py", "doc/md_docs.go", "docs/reactor-refactor.md",
        "codegen/typescript.ts", "tools/gen.go", "a/__tests__/b.ts", "pkg/testdata/x.go",
        "fixtures/f.ts", "testing/helpers.go", "command_test.go", "test_core.py",
        "core_test.py", "conftest.py", "src/value.test.ts", "src/value.spec.ts")) {
      assertThat(LibraryPaths.isLibrary(p)).as(p).isFalse();
    }
    assertThat(LibraryPaths.isLibrary("src/latest.ts")).isTrue(); // "test" inside a word
    assertThat(LibraryPaths.isLibrary("src/contest_x.py")).isTrue();
  }
}
