package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.literalSearch;
import static dev.prismindex.engine.TestRepos.git;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import dev.prismindex.engine.internal.walk.WalkResult;
import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.repository.AbortSignal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The depth and path-length limits, one rule for the indexing walk and the freshness probe. */
class WalkLimitsTest {

  @TempDir Path root;

  /** {@code n} directories named {@code d} ({@code d/d/.../d}), without the trailing slash. */
  private static String dirs(int n) {
    return "d/".repeat(n).substring(0, 2 * n - 1);
  }

  /**
   * Deletes a chain of directories named {@code d} by moving each child up to the root first, so no
   * path is long (a recursive delete of 1,100 levels takes most of a minute).
   */
  private void deleteChain(Path top) throws Exception {
    Path current = top;
    for (int i = 0; Files.isDirectory(current); i++) {
      Path next = root.resolve("chain-" + (i % 2));
      Path child = current.resolve("d");
      if (Files.isDirectory(child)) {
        Files.move(child, next);
      }
      try (var files = Files.list(current)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(current);
      current = next;
    }
  }

  private HybridIndex open(HybridIndexOptions.Builder options) throws Exception {
    return HybridIndex.open(options.semantic(false).threads(1).build());
  }

  @Test
  void filesBelowTheDepthLimitAreCountedByTheWalksOwnPruningRule(@TempDir Path plain)
      throws Exception {
    write(plain, "top.txt", "top\n");
    write(plain, "a/b/c/deep.txt", "deep\n");
    write(plain, "a/b/c/build/generated.txt", "output, pruned outside src\n");
    write(plain, "a/b/c/node_modules/m/index.js", "dependency\n");
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(plain).semantic(false).maxDepth(2).build())) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).containsEntry(SkipReason.TOO_DEEP, 1);
      assertThat(index.staleness().skipped()).containsEntry(SkipReason.TOO_DEEP, 1);
    }
  }

  @Test
  void aFileElevenHundredDirectoriesDeepInGitIsSkippedCountedAndNeverStale() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    write(root, "top.txt", "deepmarker at the top\n");
    String kept = dirs(FileRules.DEFAULT_MAX_DEPTH) + "/kept.txt";
    String deep = dirs(1100) + "/deep.txt";
    write(root, kept, "deepmarker at the limit\n");
    write(root, deep, "deepmarker far below\n");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "deep");
    assertThat(git(root, "ls-files")).contains("deep.txt");

    try (HybridIndex index = open(HybridIndexOptions.builder(root))) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).containsEntry(SkipReason.TOO_DEEP, 1);
      assertThat(index.search("deepmarker", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactlyInAnyOrder("top.txt", kept);
      assertThat(literalSearch(index, "deepmarker", true, null, 100, false, AbortSignal.create())
          .matches()).extracting(m -> m.path()).containsExactlyInAnyOrder("top.txt", kept);

      Staleness probe = index.staleness();
      assertThat(probe.isStale()).isFalse();
      assertThat(probe.skipped()).containsEntry(SkipReason.TOO_DEEP, 1);

      // Changing the skipped file changes nothing the index serves.
      write(root, deep, "deepmarker far below, edited and longer\n");
      write(root, dirs(1100) + "/another.txt", "new and deep\n");
      probe = index.staleness();
      assertThat(probe.isStale()).isFalse();
      assertThat(probe.skipped()).containsEntry(SkipReason.TOO_DEEP, 2);
      // The next run indexes nothing; it commits only the new skip counts (prism.skipped, what
      // literal search reports as not searched), and a run after it has nothing to commit.
      IndexRunStats again = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(again.added() + again.changed() + again.deleted()).isZero();
      assertThat(again.skipped()).containsEntry(SkipReason.TOO_DEEP, 2);
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).committed()).isFalse();
      assertThat(index.search("deepmarker", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactlyInAnyOrder("top.txt", kept);
    }
    deleteChain(root.resolve("d"));
  }

  @Test
  void gitWalkAndPlainWalkApplyTheSameLimits(@TempDir Path plain) throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    for (Path dir : List.of(root, plain)) {
      write(dir, "a/b/c/ok.txt", "three directories\n");
      write(dir, "a/b/c/d/deep.txt", "four directories\n");
      write(dir, "a/b/c/d/e/deeper.txt", "five\n");
      write(dir, "a/b/c/d/e/node_modules/x.js", "never counted\n");
      write(dir, "long/" + "n".repeat(40) + ".txt", "a long name\n");
      write(dir, "x/" + "y".repeat(50) + "/z.txt", "below a long directory\n");
      write(dir, "é/é.txt", "two-byte characters\n");
    }
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-q", "-m", "init");
    FileRules rules = new FileRules(List.of(), List.of(), false, List.of(), List.of(), 3, 40);
    WalkResult inGit = new RepoWalker(root.toRealPath(), root.resolve(".prism-index"), rules)
        .walk();
    WalkResult outside = new RepoWalker(plain.toRealPath(), plain.resolve(".prism-index"), rules)
        .walk();
    assertThat(inGit.paths()).containsExactly("a/b/c/ok.txt", "é/é.txt");
    assertThat(outside.paths()).isEqualTo(inGit.paths());
    assertThat(inGit.skipped()).containsEntry(SkipReason.TOO_DEEP, 2)
        .containsEntry(SkipReason.PATH_TOO_LONG, 2);
    assertThat(outside.skipped()).isEqualTo(inGit.skipped());
  }

  @Test
  void pathLengthCountsUtf8Bytes() {
    FileRules rules = new FileRules(List.of(), List.of(), false, List.of(), List.of(), 10, 8);
    assertThat(rules.skipByName("éééé.x")).isEqualTo(SkipReason.PATH_TOO_LONG); // 10 bytes
    assertThat(rules.skipByName("ééé.x")).isNull(); // 8 bytes
    assertThat(rules.skipByName("\uD83D\uDE00.txt")).isNull(); // 4 + 4 bytes
    assertThat(rules.skipByName("\uD83D\uDE00.txts")).isEqualTo(SkipReason.PATH_TOO_LONG);
    assertThat(rules.directoryLimit("abcdefg")).isEqualTo(SkipReason.PATH_TOO_LONG);
    assertThat(rules.directoryLimit("abcdef")).isNull(); // "abcdef/x" fits
  }

  @Test
  void namedUpdatesApplyTheLimitsToo() throws Exception {
    String deep = dirs(5) + "/deep.txt";
    write(root, deep, "namedmarker\n");
    write(root, "ok.txt", "namedmarker\n");
    try (HybridIndex index = open(HybridIndexOptions.builder(root).maxDepth(4))) {
      index.update(IndexUpdateRequest.of("r1", List.of(
          IndexFileChange.of(deep, IndexFileChangeKind.ADD),
          IndexFileChange.of("ok.txt", IndexFileChangeKind.ADD))));
      assertThat(index.search("namedmarker", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactly("ok.txt");
      assertThat(index.staleness().isStale()).isFalse();
    }
    assertThat(Files.exists(root.resolve(deep))).isTrue();
  }
}
