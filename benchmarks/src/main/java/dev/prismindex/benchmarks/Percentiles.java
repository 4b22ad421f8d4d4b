package dev.prismindex.benchmarks;

import java.util.Arrays;
import java.util.Locale;

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
}
