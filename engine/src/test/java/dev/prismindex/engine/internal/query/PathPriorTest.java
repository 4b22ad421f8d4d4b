package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PathPriorTest {

  @Test
  void testsExamplesBenchesFixturesAndGeneratedFilesAreAuxiliary() {
    assertThat(Set.of("tests/test_core.py", "src/test/java/a/FooTest.java", "pkg/a_test.go",
        "toolz/tests/test_itertoolz.py", "src/__tests__/parse-test.ts", "lib/parse.spec.ts",
        "examples/hello/main.rs", "benches/spawn.rs", "bench/bench_curry.py", "testdata/x.json",
        "api/service.pb.go", "ui/model_generated.ts", "conftest.py", "src/FooIT.java",
        "Example/Demo.go", "src/main/java/a/FooTests.java", "spec/parser_spec.rb",
        "more_itertools/more.pyi", "types/index.d.ts", "lib/esm/index.d.mts"))
        .allSatisfy(p -> assertThat(PathPrior.auxiliary(p)).as(p).isTrue());
  }

  @Test
  void librarySourceIsNot() {
    assertThat(Set.of("src/main/java/a/Testing.java", "toolz/itertoolz.py", "command.go",
        "tokio/src/runtime/task/mod.rs", "src/contest/Latest.java", "src/testutil.go",
        "lib/attest.ts", "docs/guide.md", "README.md", "src/generator.py",
        "src/pyi.py", "src/d.ts.go", "src/index.ts"))
        .allSatisfy(p -> assertThat(PathPrior.auxiliary(p)).as(p).isFalse());
  }

  @Test
  void aQueryThatNamesTestsOrAnAuxiliaryScopeTurnsThePriorOff() {
    assertThat(PathPrior.applies(Set.of("parse", "header"), null)).isTrue();
    assertThat(PathPrior.applies(Set.of("parse", "header"), "src")).isTrue();
    assertThat(PathPrior.applies(Set.of("test", "parse", "header"), null)).isFalse();
    assertThat(PathPrior.applies(Set.of("examples", "spawn"), null)).isFalse();
    assertThat(PathPrior.applies(Set.of("parse"), "src/test")).isFalse();
    assertThat(PathPrior.applies(Set.of("parse"), "pkg/a_test.go")).isFalse();
    assertThat(PathPrior.factor("tests/test_a.py", 0.5)).isEqualTo(0.5);
    assertThat(PathPrior.factor("src/a.py", 0.5)).isEqualTo(1.0);
    assertThat(PathPrior.factor("tests/test_a.py", 1.0)).isEqualTo(1.0);
    // The prior lowers every score of an auxiliary file, a negative cosine too.
    assertThat(PathPrior.apply(0.8, "tests/test_a.py", 0.5)).isEqualTo(0.4);
    assertThat(PathPrior.apply(-0.2, "tests/test_a.py", 0.5)).isEqualTo(-0.4);
    assertThat(PathPrior.apply(-0.2, "src/a.py", 0.5)).isEqualTo(-0.2);
  }
}
