package dev.prismindex.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link CrashSafetyTest}: indexes (and embeds) a corpus over and over, editing
 * a few files between runs, until it is killed. Prints {@code COMMITTED <revision>} after each commit.
 *
 * <p>Usage: {@code CrashChild <root> <seed>}.
 */
public final class CrashChild {
  private CrashChild() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    Random random = new Random(Long.parseLong(args[1]));
    // The class path's default embedder (the test one); vectors committed after every batch, so
    // kills also land between vector commits.
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root)
        .embeddingCommitInterval(java.time.Duration.ZERO).build())) {
      for (int run = 0; ; run++) {
        IndexRunStats stats = index.refresh(run % 3 == 2 ? RefreshOptions.FULL
            : RefreshOptions.INCREMENTAL);
        if (stats.committed()) {
          System.out.println("COMMITTED " + stats.sourceRevision());
          System.out.flush();
        }
        for (int i = 0; i < 20; i++) {
          Path file = root.resolve(CrashSafetyTest.fileName(random.nextInt(CrashSafetyTest.FILES)));
          if (random.nextInt(10) == 0) {
            Files.deleteIfExists(file);
          } else {
            CrashSafetyTest.writeSource(root, file, random.nextLong());
          }
        }
      }
    }
  }
}
