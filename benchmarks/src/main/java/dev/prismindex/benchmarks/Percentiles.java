package dev.prismindex.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/** Nearest-rank percentiles of a set of nanosecond samples. */
final class Percentiles {

  private final long[] sorted;

  Percentiles(long[] samples) {
    this.sorted = samples.clone();
    Arrays.sort(sorted);
  }

  int count() {
    return sorted.length;
  }

  /** The nearest-rank {@code p}-th percentile ({@code 0 < p <= 100}), in milliseconds. */
  double ms(double p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))] / 1e6;
  }

  double maxMs() {
    return sorted[sorted.length - 1] / 1e6;
  }

  String summary() {
    return String.format(Locale.ROOT, "n=%d p50=%.3f p95=%.3f p99=%.3f max=%.3f ms", count(),
        ms(50), ms(95), ms(99), maxMs());
  }

  /** A call prepared for sample {@code i}; preparation is not timed. */
  interface Prepared {
    Supplier<Object> prepare(int i);
  }

  /**
   * Times {@code samples} calls after {@code warmup} untimed ones, call {@code i} prepared (untimed)
   * by {@code calls} for index {@code i % distinct}; results are consumed so no call is dead code.
   */
  static Percentiles sample(int warmup, int samples, int distinct, Prepared calls) {
    long sink = 0;
    for (int i = 0; i < warmup; i++) {
      sink += System.identityHashCode(calls.prepare(i % distinct).get());
    }
    long[] nanos = new long[samples];
    for (int i = 0; i < samples; i++) {
      Supplier<Object> call = calls.prepare((warmup + i) % distinct);
      long start = System.nanoTime();
      Object result = call.get();
      nanos[i] = System.nanoTime() - start;
      sink += System.identityHashCode(result);
    }
    if (sink == 42) {
      System.out.print("");
    }
    return new Percentiles(nanos);
  }
}
