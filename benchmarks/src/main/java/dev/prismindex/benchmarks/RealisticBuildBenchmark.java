package dev.prismindex.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Build time of a whole index: 100 000 realistic files ({@link RealisticFixture}) loaded through the
 * facade in 100 batches of 1 000 (reading, hashing, gram-indexing, embedding, merging), from empty to
 * ready. Each shot builds a fresh index; the content is generated on read, so generation is part of
 * the figure (about a tenth of it).
 *
 * <p>Command:
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar RealisticBuildBenchmark -rf json -rff build.json}</pre>
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
public class RealisticBuildBenchmark {

  @Benchmark
  public long build() {
    RealisticFixture fixture = new RealisticFixture(RealisticFixture.FILES);
    try (IndexHarness harness = IndexHarness.create(fixture, null)) {
      harness.load(RealisticFixture::path, fixture.files(), 1_000);
      return harness.backend().stats().files();
    }
  }
}
