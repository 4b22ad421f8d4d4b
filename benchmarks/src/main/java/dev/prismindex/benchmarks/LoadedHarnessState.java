package dev.prismindex.benchmarks;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The life of a query benchmark over one {@link IndexHarness}: the subclass loads {@link #harness}
 * in its trial setup; freshness is re-attested before every iteration (so a long measurement is
 * never refused as stale) and the harness is closed after the trial.
 */
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
