package dev.prismindex.benchmarks;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.commons.codec.digest.Blake3;
import org.bouncycastle.crypto.digests.Blake3Digest;
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
 * BLAKE3-256 throughput of BouncyCastle's {@code Blake3Digest} and commons-codec's {@code Blake3}
 * on one buffer of {@code size} random bytes, a fresh hasher per hash (as the indexer hashes one
 * file). Throughput in hashes per second; MB/s = score x size / 10^6.
 *
 * <p>Command (one implementation per run, alternated; docs/benchmarks.md section 9):
 *
 * <pre>{@code java -Djmh.ignoreLock=true -jar benchmarks/target/benchmarks.jar Blake3Benchmark -p impl=commons-codec}</pre>
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

  @Param({"bouncycastle", "commons-codec"})
  String impl;

  private byte[] data;

  @Setup
  public void setUp() {
    data = new byte[size];
    new Random(1).nextBytes(data);
  }

  @Benchmark
  public byte[] hash() {
    byte[] out = new byte[32];
    if (impl.equals("bouncycastle")) {
      Blake3Digest digest = new Blake3Digest(256);
      digest.update(data, 0, data.length);
      digest.doFinal(out, 0);
    } else {
      Blake3.initHash().update(data, 0, data.length).doFinalize(out);
    }
    return out;
  }
}
