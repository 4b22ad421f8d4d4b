package dev.prismindex.benchmarks;

import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Seed fixture, item (b): one batch of 1 000 edited files through the facade into the loaded
 * 100 000-file index. Each invocation edits the next 1 000 files (cycling over the fixture) to new
 * content, so every file is really re-indexed (read, hashed, gram-indexed, embedded) and the old
 * copies deleted; segment merges happen as they fall due, so the samples include their amortised
 * cost (visible at p99).
 *
 * <p>Command:
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar SeedUpdateBenchmark -rf json -rff seed-update.json}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class SeedUpdateBenchmark {

  private SeedFixture fixture;
  private IndexHarness harness;
  private int nextBatch;

  @Setup(Level.Trial)
  public void load() {
    fixture = new SeedFixture(SeedFixture.FILES);
    harness = IndexHarness.loaded(fixture, SeedFixture::path, fixture.files());
  }

  @TearDown(Level.Trial)
  public void dispose() {
    harness.close();
  }

  /** Edits the next 1 000 files and sends them as one update. */
  @Benchmark
  public void update1000() {
    harness.update(nextEdits(fixture, nextBatch++));
  }

  /** The changes of batch {@code n}: files {@code [n*1000, n*1000+1000)} modulo the fixture. */
  static List<IndexFileChange> nextEdits(SeedFixture fixture, int n) {
    int from = (n * 1_000) % fixture.files();
    List<IndexFileChange> changes = new ArrayList<>(1_000);
    for (int i = from; i < from + 1_000 && i < fixture.files(); i++) {
      fixture.edit(i);
      changes.add(IndexFileChange.of(SeedFixture.path(i), IndexFileChangeKind.EDIT));
    }
    return changes;
  }
}
