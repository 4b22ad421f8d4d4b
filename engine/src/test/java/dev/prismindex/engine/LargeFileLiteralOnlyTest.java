package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.repository.SearchMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: a text file over {@link HybridIndexOptions#maxFileBytes()} (1 MiB) but within the
 * exact-search cap (8 MiB) is indexed for literal and regex search only, as ripgrep searches it;
 * ranked searches never return it; over 8 MiB it stays oversize. Before, every such file was
 * skipped as oversize.
 */
class LargeFileLiteralOnlyTest {

  @TempDir Path root;

  /** {@code lines} lines of about 100 bytes, numbered from {@code first}. */
  private static String filler(int first, int lines) {
    StringBuilder s = new StringBuilder();
    for (int i = first; i < first + lines; i++) {
      s.append("filler line ").append(i).append(' ').append("q".repeat(80)).append('\n');
    }
    return s.toString();
  }

  private static SearchOpts regex() {
    return SearchOpts.builder().mode(SearchMode.REGEX).limit(SearchOpts.UNLIMITED)
        .caseSensitive(true).build();
  }

  private HybridIndex open() throws Exception {
    return HybridIndex.open(HybridIndexOptions.builder(root).semantic(false).threads(2).build());
  }

  @Test
  void theExactCapIsTheScannersUnlessTheRankingCapIsLarger() {
    Path root = Path.of(".");
    assertThat(HybridIndexOptions.builder(root).build().exactMaxFileBytes())
        .isEqualTo(8L * 1024 * 1024);
    assertThat(HybridIndexOptions.builder(root).maxFileBytes(2_000).build().exactMaxFileBytes())
        .isEqualTo(8L * 1024 * 1024);
    assertThat(HybridIndexOptions.builder(root).maxFileBytes(20L << 20).build()
        .exactMaxFileBytes()).isEqualTo(20L << 20);
  }

  @Test
  void aFileBetweenOneAndEightMiBIsFoundByExactModesOnlyWithItsLineNumbers() throws Exception {
    String body = filler(1, 15_700); // ~1.5 MiB
    write(root, "data/big.txt", body + "the bigFileNeedle line\n" + filler(15_702, 5));
    write(root, "src/Small.java", "class Small { String bigFileNeedle; }\n");
    write(root, "data/huge.txt", filler(1, 100_000) + "the bigFileNeedle in a huge file\n");
    assertThat(Files.size(root.resolve("data/big.txt"))).isBetween(1_400_000L, 1_700_000L);
    assertThat(Files.size(root.resolve("data/huge.txt"))).isGreaterThan(9L * 1024 * 1024);
    try (HybridIndex index = open()) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).containsEntry(SkipReason.OVERSIZE, 1);

      SearchResult literal = index.searchResult("bigFileNeedle", SearchOpts.literal(100, true));
      assertThat(literal.hits()).extracting(Hit::path, Hit::line)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("data/big.txt", 15_701),
              org.assertj.core.groups.Tuple.tuple("src/Small.java", 1));
      assertThat(literal.notSearched()).containsEntry("oversize", 1);

      SearchResult rx = index.searchResult("big[F]ileNeedle l(i|x)ne", regex());
      assertThat(rx.hits()).extracting(Hit::path, Hit::line)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("data/big.txt", 15_701));
      assertThat(index.searchResult("filler line 15705 ", regex()).hits())
          .extracting(Hit::line).containsExactly(15_705);

      assertThat(index.searchResult("bigFileNeedle", SearchOpts.lexical(10)).hits())
          .extracting(Hit::path).containsExactly("src/Small.java");
      assertThat(manifest(index).get("data/big.txt").chunks()).isZero();
      assertThat(manifest(index)).doesNotContainKey("data/huge.txt");
      assertThat(index.staleness().isStale()).isFalse();
    }
  }

  @Test
  void aFileGrowingOverOneMiBTurnsLiteralOnlyAndBackWhenItShrinks() throws Exception {
    Path grow = write(root, "notes/grow.txt", "a growingNeedle to rank\n");
    write(root, "src/Other.java", "class Other { int unrelated; }\n");
    try (HybridIndex index = open()) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.searchResult("growingNeedle", SearchOpts.lexical(10)).hits())
          .extracting(Hit::path).containsExactly("notes/grow.txt");

      Files.writeString(grow, filler(2, 12_000) + "late growingNeedle here\n",
          StandardOpenOption.APPEND);
      assertThat(Files.size(grow)).isGreaterThan(1024L * 1024);
      assertThat(index.staleness().isStale()).isTrue();
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.searchResult("growingNeedle", SearchOpts.literal(10, true)).hits())
          .extracting(Hit::path, Hit::line)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("notes/grow.txt", 1),
              org.assertj.core.groups.Tuple.tuple("notes/grow.txt", 12_002));
      assertThat(index.searchResult("late grow[a-z]+Needle", regex()).hits())
          .extracting(Hit::line).containsExactly(12_002);
      assertThat(index.searchResult("growingNeedle", SearchOpts.lexical(10)).hits()).isEmpty();
      assertThat(manifest(index).get("notes/grow.txt").chunks()).isZero();

      Files.writeString(grow, "a growingNeedle to rank again\n");
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.searchResult("growingNeedle", SearchOpts.lexical(10)).hits())
          .extracting(Hit::path).containsExactly("notes/grow.txt");
      assertThat(manifest(index).get("notes/grow.txt").chunks()).isPositive();
      assertThat(index.searchResult("growingNeedle", SearchOpts.literal(10, true)).hits())
          .extracting(Hit::line).containsExactly(1);
    }
  }
}
