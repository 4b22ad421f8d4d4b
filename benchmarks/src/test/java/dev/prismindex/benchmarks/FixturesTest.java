package dev.prismindex.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Quick checks of the fixtures and helpers (the measurements themselves run in BudgetCheck). */
class FixturesTest {

  @Test
  void theSeedFixtureServesItsFilesAndEdits() {
    SeedFixture fixture = new SeedFixture(1_000);
    assertThat(SeedFixture.path(7)).isEqualTo("src/module-7/index.ts");
    assertThat(new String(fixture.read("src/module-7/index.ts", 100), StandardCharsets.UTF_8))
        .isEqualTo("// module 7\n");
    assertThat(fixture.read("src/module-1000/index.ts", 100)).isNull();
    assertThat(fixture.read("src/module-x/index.ts", 100)).isNull();
    fixture.edit(7);
    assertThat(new String(fixture.read("src/module-7/index.ts", 100), StandardCharsets.UTF_8))
        .isEqualTo("// module 7 v1\n");
    assertThat(fixture.queries(1_000, 42)).hasSize(1_000).allMatch(q -> q.startsWith("module-"))
        .isEqualTo(fixture.queries(1_000, 42));
  }

  @Test
  void theRealisticFixtureIsDeterministicCodeOfOneToFourKilobytes() {
    RealisticFixture fixture = new RealisticFixture(300);
    for (int i = 0; i < 300; i++) {
      byte[] content = fixture.read(RealisticFixture.path(i), 1 << 20);
      assertThat(content).isNotNull();
      assertThat(content.length).isBetween(900, 4_096);
      assertThat(content).isEqualTo(fixture.read(RealisticFixture.path(i), 1 << 20));
    }
    assertThat(fixture.read("src/pkg0/mod0/nothing1.ts", 100)).isNull();
    assertThat(RealisticFixture.queries(100, 1)).isEqualTo(RealisticFixture.queries(100, 1));
  }

  @Test
  void theSmallTreeIsFoundThroughTheScannerAndTheSeedThroughTheIndex() {
    Path tree = LiteralRoutingBenchmark.createTree();
    try (IndexHarness harness = IndexHarness.onDisk(tree)) {
      LiteralRoutingBenchmark.check(harness);
    } finally {
      Trees.delete(tree);
    }
    SeedFixture fixture = new SeedFixture(2_000);
    try (IndexHarness harness = IndexHarness.create(fixture, SeedFixture.path(0))) {
      harness.load(SeedFixture::path, fixture.files(), 1_000);
      assertThat(harness.search("module-42", dev.prismindex.repository.SearchMode.INDEXED_LITERAL,
          null).matches().get(0).path()).isEqualTo("src/module-42/index.ts");
    }
  }

  @Test
  void percentilesUseTheNearestRank() {
    long[] samples = new long[100];
    for (int i = 0; i < 100; i++) {
      samples[i] = (100 - i) * 1_000_000L;
    }
    Percentiles percentiles = new Percentiles(samples);
    assertThat(percentiles.ms(50)).isEqualTo(50.0);
    assertThat(percentiles.ms(95)).isEqualTo(95.0);
    assertThat(percentiles.maxMs()).isEqualTo(100.0);
  }
}
