package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
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
    // The test embedder, as a transformer (vectors committed after every batch of the embedding
    // phase, so kills also land between vector commits) or, for every other child, as a static
    // model (vectors written with the chunks, in the lexical commit): the same id and vectors.
    boolean statik = Long.parseLong(args[1]) % 2 != 0;
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root)
        .embedder(TestEmbedders.fake().kind(statik ? Embedder.Kind.STATIC
            : Embedder.Kind.TRANSFORMER))
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
