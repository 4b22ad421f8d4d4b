package dev.prismindex.benchmarks;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What one pathologically deep directory costs the freshness probe ({@link HybridIndex#staleness},
 * run before every CLI search and by {@code status}): a git repository (if {@code git} is on the
 * path) with 50 ordinary files and one file {@code DEPTH} directories deep, indexed once, then the
 * probe timed. Uses only API that predates the depth limit, so the same source runs against an
 * older engine jar for the before figure.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.DeepTreeTiming WORKDIR [DEPTH]</pre>
 */
public final class DeepTreeTiming {
  private DeepTreeTiming() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: DeepTreeTiming WORKDIR [DEPTH, default 1100]");
      System.exit(2);
    }
    Path root = Files.createTempDirectory(Path.of(args[0]), "deep");
    int depth = args.length > 1 ? Integer.parseInt(args[1]) : 1100;
    for (int i = 0; i < 50; i++) {
      Files.writeString(root.resolve("f" + i + ".txt"), "ordinary file " + i + "\n");
    }
    Path dir = root;
    for (int i = 0; i < depth; i++) {
      dir = dir.resolve("d");
    }
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("deep.txt"), "deep\n");
    boolean git = new ProcessBuilder("git", "init", "-q").directory(root.toFile())
        .redirectErrorStream(true).start().waitFor() == 0;
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(root).semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      long[] nanos = new long[7];
      for (int i = 0; i < nanos.length; i++) {
        long start = System.nanoTime();
        index.staleness();
        nanos[i] = System.nanoTime() - start;
      }
      Arrays.sort(nanos);
      System.out.printf("depth %d, %s: staleness() median %.0f ms, min %.0f, max %.0f (n = 7)%n",
          depth, git ? "git repository" : "no git", nanos[3] / 1e6, nanos[0] / 1e6,
          nanos[6] / 1e6);
    }
    // The tree is left in WORKDIR: deleting 1,100 nested directories is slow; remove WORKDIR.
  }
}
