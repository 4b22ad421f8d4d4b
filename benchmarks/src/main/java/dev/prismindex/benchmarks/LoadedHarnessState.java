package dev.prismindex.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The life of a query benchmark over one {@link IndexHarness}: the subclass loads {@link #harness}
 * in its trial setup; freshness is re-attested before every iteration (so a long measurement is
 * never refused as stale) and the harness is closed after the trial. Measured as sampled latency
 * in microseconds over five 5-second iterations (JMH's annotations are inherited; the subclass
 * sets its warm-up and its fork's heap).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Measurement(iterations = 5, time = 5)
public abstract class LoadedHarnessState {

  protected IndexHarness harness;

  @Setup(Level.Iteration)
  public void refresh() {
    harness.refresh();
  }

  @TearDown(Level.Trial)
  public void dispose() {
    harness.close();
  }
}
