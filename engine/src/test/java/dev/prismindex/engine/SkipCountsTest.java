package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.write;
import static dev.prismindex.engine.TestRepos.writeBytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The freshness probe ({@code status}) counts every skipped file under the reason the indexing run
 * ({@code index}) gives it. Issue 41, item 7: oversize files (and binary ones) were left out of
 * the probe's counts, so {@code status} said 18 where {@code index} said 20.
 */
class SkipCountsTest {

  @TempDir Path root;

  @Test
  void theProbeCountsEverySkipAsTheRunDoes() throws Exception {
    write(root, "src/Main.java", "class Main { void run() {} }\n");
    write(root, "big.txt", "x".repeat(3_000) + "\n");
    write(root, "data/huge.log", "y".repeat(9 * 1024 * 1024) + "\n"); // over the exact cap
    writeBytes(root, "blob.bin", new byte[] {'a', 0, 'b', 0});
    write(root, "deploy/key.txt", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n"
        + "-----END RSA PRIVATE KEY-----\n");
    write(root, ".env", "TOKEN=x\n");
    Files.createSymbolicLink(root.resolve("link.java"), root.resolve("src/Main.java"));
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root).semantic(false)
        .threads(1).maxFileBytes(2_000).build())) {
      IndexRunStats first = index.refresh(RefreshOptions.INCREMENTAL);
      // big.txt, over maxFileBytes but within 8 MiB, is indexed for exact search only
      Map<SkipReason, Integer> expected = Map.of(SkipReason.OVERSIZE, 1, SkipReason.BINARY, 1,
          SkipReason.PRIVATE_KEY, 1, SkipReason.SECRET, 1, SkipReason.NOT_REGULAR, 1);
      assertThat(first.skipped()).isEqualTo(expected);
      assertThat(index.staleness().skipped()).isEqualTo(expected);
      // A second run skips the remembered ones unread; the counts do not change.
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).skipped()).isEqualTo(expected);
      assertThat(index.staleness().skipped()).isEqualTo(expected);
      assertThat(index.staleness().isStale()).isFalse();
    }
  }
}
