package dev.prismindex.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The life of a one-shot benchmark that builds an index from nothing: measured in seconds per
 * shot, in one fork with a 1 GB heap (JMH's annotations are inherited; the subclass sets its
 * warm-up and measured shots). Its files live under a temporary directory, {@link #base}, made by
 * {@link #makeBase} in the subclass's trial setup and deleted after the trial.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public abstract class SingleShot {

  Path base;

  /** Makes {@link #base}, a new temporary directory named with {@code prefix}. */
  protected void makeBase(String prefix) throws IOException {
    base = Files.createTempDirectory(prefix);
  }

  @TearDown(Level.Trial)
  public void clean() {
    Trees.delete(base);
  }
}
