package dev.prismindex.benchmarks;

import dev.prismindex.engine.HybridIndex;
import java.io.IOException;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The life of a benchmark over {@link EngineFixture}'s persisted lexical index: the parameters
 * {@code corpus} ({@value EngineFixture#GENERATED}, or {@code -p corpus=DIR} for a real repository)
 * and {@code files} (of the generated corpus); the subclass calls {@link #openFixture()} first in
 * its trial setup, and the index is closed after the trial.
 */
public abstract class EngineFixtureState extends SampledLatency {

  @Param({EngineFixture.GENERATED})
  public String corpus;

  @Param({"10000"})
  public int files;

  EngineFixture fixture;
  HybridIndex index;

  /** Resolves the corpus (generating it when needed) and opens its index, brought up to date. */
  protected void openFixture() throws IOException {
    fixture = EngineFixture.resolve(corpus, files);
    index = fixture.openIndex();
  }

  @TearDown(Level.Trial)
  public void closeIndex() throws IOException {
    index.close();
  }
}
