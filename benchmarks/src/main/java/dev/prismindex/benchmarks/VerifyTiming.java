package dev.prismindex.benchmarks;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What checking an index for damage costs: {@link HybridIndex#verify} with {@code false} (the
 * checksum of every file of the last commit; what {@code prism-index status} runs on every call)
 * and with {@code true} (also Lucene's {@code CheckIndex}; {@code status --verify}), on an existing
 * index, warm page cache. Prints the median, minimum and maximum of each.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.VerifyTiming REPO</pre>
 */
public final class VerifyTiming {
  private VerifyTiming() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: VerifyTiming REPO (a repository with a .prism-index)");
      System.exit(2);
    }
    Path root = Path.of(args[0]);
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).semantic(false).build())) {
      System.out.println("index size on disk: " + index.engineStatus().sizeOnDiskBytes()
          + " bytes");
      time(index, false, 21);
      time(index, true, 3);
    }
  }

  private static void time(HybridIndex index, boolean thorough, int n) throws Exception {
    long[] nanos = new long[n];
    for (int i = 0; i < n; i++) {
      long start = System.nanoTime();
      index.verify(thorough);
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    System.out.printf("verify(%s): median %.1f ms, min %.1f ms, max %.1f ms (n = %d)%n",
        thorough, nanos[n / 2] / 1e6, nanos[0] / 1e6, nanos[n - 1] / 1e6, n);
  }
}
