package dev.prismindex.benchmarks;

import dev.prismindex.engine.testing.EngineProbes;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.commons.codec.digest.Blake3;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * BLAKE3-256 throughput of the engine's hash ({@code impl=engine}: {@code internal.pipeline.Hashing},
 * the BLAKE3 C code where the engine's native library is loaded, linux-x86_64) and of commons-codec's
 * {@code Blake3} ({@code impl=commons-codec}, the engine's hash elsewhere; docs/engine.md,
 * "Hashing"), on one buffer of {@code size} random bytes with a fresh hasher per hash, as the
 * indexer hashes one file. Score in hashes per second; MB/s = score x size / 10^6.
 *
 * <p>Command (docs/benchmarks.md, section 9):
 *
 * <pre>{@code java -Djmh.ignoreLock=true -jar benchmarks/target/benchmarks.jar Blake3Benchmark}</pre>
 *
 * <p>Until issue 18 {@code impl} chose between commons-codec and BouncyCastle's {@code
 * Blake3Digest}; that version, and the figures that decided the switch, are in git history
 * (docs/runs/README.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class Blake3Benchmark {

  @Param({"4096", "65536", "1048576"})
  int size;

  @Param({"engine", "commons-codec"})
  String impl;

  private byte[] data;

  @Setup
  public void setUp() {
    data = new byte[size];
    new Random(1).nextBytes(data);
  }

  @Benchmark
  public byte[] hash() {
    if (impl.equals("engine")) {
      return EngineProbes.blake3(data);
    }
    byte[] out = new byte[32];
    Blake3.initHash().update(data, 0, data.length).doFinalize(out);
    return out;
  }
}
