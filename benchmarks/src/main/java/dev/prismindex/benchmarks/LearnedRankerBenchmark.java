package dev.prismindex.benchmarks;

import dev.prismindex.engine.testing.RankerWorkload;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The learned ranker's cost per candidate ({@code Fusion.learned()}), on one search's candidates
 * ({@link RankerWorkload}: those of a limit-10 hybrid search, 50 lexical and 50 semantic, 20 in
 * both, so 80). {@code rank}: every candidate's features (reciprocal ranks, BM25 parts, cosines,
 * the definition's kind, name terms, file coherence, length) and the model's order; {@code
 * score}: the model alone (its linear part and its trees).
 *
 * <pre>{@code java -Djmh.ignoreLock=true -jar benchmarks/target/benchmarks.jar LearnedRankerBenchmark}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LearnedRankerBenchmark {

  static final int CANDIDATES = 80;

  private RankerWorkload workload;

  @Setup
  public void setUp() throws IOException {
    workload = new RankerWorkload(50, 20, 38);
    if (workload.candidates() != CANDIDATES) {
      throw new IllegalStateException(workload.candidates() + " candidates");
    }
  }

  /** Features and order of one search's candidates, per candidate. */
  @Benchmark
  @OperationsPerInvocation(CANDIDATES)
  public Object rank() throws IOException {
    return workload.rank();
  }

  /** The model alone (linear part and trees), per candidate. */
  @Benchmark
  @OperationsPerInvocation(CANDIDATES)
  public double score() {
    return workload.score();
  }
}
