package dev.prismindex.benchmarks;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How the engine's warm benchmarks measure: sampled latency over two warm-up and four measured
 * 5-second iterations, in one fork with a 1 GB heap (JMH's annotations are inherited; the subclass
 * sets its time unit).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 4, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public abstract class SampledLatency {
}
