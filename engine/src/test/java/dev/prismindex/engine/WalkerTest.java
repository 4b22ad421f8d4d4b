package dev.prismindex.engine;

import static dev.prismindex.engine.TestRepos.git;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.prismindex.engine.internal.pipeline.FileStat;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import dev.prismindex.engine.internal.walk.WalkResult;
import dev.prismindex.engine.internal.walk.WalkedFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class WalkerTest {

  @TempDir Path root;
  @TempDir Path outside;

  private WalkResult walk() throws Exception {
    return new RepoWalker(root.toRealPath(), root.toRealPath().resolve(".prism-index"),
        new FileRules(List.of(), List.of(), false)).walk();
  }

  @Test
  void gitWalkEqualsGitLsFiles() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    write(root, ".gitignore", "*.log\nignored-dir/\n/top-only.txt\n");
    write(root, "src/.gitignore", "local.tmp\n!keep.log\n");
    write(root, "src/Main.java", "class Main {}\n");
    write(root, "src/local.tmp", "x\n");
    write(root, "src/keep.log", "kept by negation\n");
    write(root, "src/deep/a/b/c.txt", "deep\n");
    write(root, "top-only.txt", "ignored at top\n");
    write(root, "sub/top-only.txt", "not ignored below\n");
    write(root, "app.log", "ignored\n");
    write(root, "ignored-dir/x.txt", "ignored\n");
    write(root, "excluded-by-info.txt", "x\n");
    write(root, "global-excluded.cfg", "x\n");
    write(root, "tracked.log", "tracked although ignored\n");
    write(root, "with space/ü.txt", "unicode\n");
    write(root, "untracked.txt", "untracked, not ignored\n");
    Files.writeString(root.resolve(".git/info/exclude"), "excluded-by-info.txt\n");
    Path globalIgnore = outside.resolve("global-ignore");
    Files.writeString(globalIgnore, "*.cfg\n");
    git(root, "config", "core.excludesFile", globalIgnore.toString());
    git(root, "add", "-f", "tracked.log", ".gitignore", "src/Main.java");
    git(root, "commit", "-q", "-m", "init");
    String ls = git(root, "-c", "core.quotepath=off", "ls-files", "--cached", "--others",
        "--exclude-standard", "-z");
    List<String> expected = Arrays.stream(ls.split("\0")).filter(s -> !s.isEmpty()).sorted()
        .toList();
    WalkResult result = walk();
    assertThat(result.paths()).isEqualTo(expected);
    assertThat(result.paths()).contains("tracked.log", "src/keep.log", "sub/top-only.txt")
        .doesNotContain("app.log", "global-excluded.cfg", "excluded-by-info.txt");
    assertThat(result.gitHead()).hasSize(40);
  }

  @Test
  void gitWalkFromASubdirectoryListsOnlyThatSubtree() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    write(root, "a/x.txt", "x\n");
    write(root, "b/y.txt", "y\n");
    WalkResult result = new RepoWalker(root.resolve("a").toRealPath(),
        root.resolve("a/.prism-index"), new FileRules(List.of(), List.of(), false)).walk();
    assertThat(result.paths()).containsExactly("x.txt");
  }

  /**
   * More tracked directories than the walk lists ahead ({@code ListingPrefetch.AHEAD}), with
   * untracked, ignored, pruned and deleted entries among them, from the work tree and from a
   * subdirectory: the same files as git, each with the stat data of its own {@code lstat}.
   */
  @Test
  void aLargeTrackedTreeWalksLikeGitWithEachFilesStatData() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    write(root, ".gitignore", "ignored/\n");
    List<String> expected = new ArrayList<>(List.of(".gitignore"));
    for (int i = 0; i < 320; i++) {
      String dir = String.format("big/d%03d", i);
      write(root, dir + "/f.txt", "tracked " + i + "\n");
      expected.add(dir + "/f.txt");
      if (i % 7 == 0) {
        write(root, dir + "/sub/g.txt", "tracked below " + i + "\n");
        expected.add(dir + "/sub/g.txt");
      }
      if (i % 5 == 0) {
        write(root, dir + "/ignored/x.txt", "ignored\n");
        write(root, dir + "/node_modules/m.txt", "pruned\n");
      }
    }
    git(root, "add", ".");
    git(root, "add", "-f", "big/d010/node_modules/m.txt", "big/d015/ignored/x.txt");
    git(root, "commit", "-q", "-m", "init");
    write(root, "big/d000/f.txt", "changed after the commit, longer\n");
    Files.delete(root.resolve("big/d001/f.txt"));
    expected.remove("big/d001/f.txt");
    expected.add("big/d015/ignored/x.txt"); // tracked although ignored
    for (int i = 0; i < 320; i += 5) {
      write(root, String.format("big/d%03d/u.txt", i), "untracked " + i + "\n");
      expected.add(String.format("big/d%03d/u.txt", i));
    }
    write(root, "big/new/dir/n.txt", "an untracked directory\n");
    expected.add("big/new/dir/n.txt");
    expected.sort(null);

    WalkResult whole = walk();
    assertThat(whole.paths()).isEqualTo(expected);
    WalkResult below = new RepoWalker(root.resolve("big").toRealPath(),
        root.toRealPath().resolve(".prism-index"), new FileRules(List.of(), List.of(), false))
        .walk();
    assertThat(below.paths()).isEqualTo(expected.stream().filter(p -> p.startsWith("big/"))
        .map(p -> p.substring(4)).toList());
    for (WalkedFile f : whole.files()) {
      FileStat stat = FileStat.of(root.resolve(f.path()), Long.MAX_VALUE);
      assertThat(List.of(f.size(), f.mtimeNs())).as(f.path())
          .isEqualTo(List.of(stat.size(), stat.mtimeNs()));
    }
  }

  @Test
  void aPlainWalkGivesEachFilesStatData() throws Exception {
    write(root, "a/x.txt", "x\n");
    write(root, "a/b/y.txt", "longer y\n");
    for (WalkedFile f : walk().files()) {
      FileStat stat = FileStat.of(root.resolve(f.path()), Long.MAX_VALUE);
      assertThat(List.of(f.size(), f.mtimeNs())).as(f.path())
          .isEqualTo(List.of(stat.size(), stat.mtimeNs()));
    }
    assertThat(walk().paths()).containsExactly("a/b/y.txt", "a/x.txt");
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void symlinkLoopsAndEscapesAreNeverFollowed() throws Exception {
    write(root, "real/file.txt", "inside needle\n");
    write(outside, "secret.txt", "outside needle\n");
    Files.createSymbolicLink(root.resolve("real/loop"), root.resolve("real"));
    Files.createSymbolicLink(root.resolve("escape-dir"), outside);
    Files.createSymbolicLink(root.resolve("escape-file.txt"), outside.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("self"), root.resolve("self"));
    assertThat(walk().paths()).containsExactly("real/file.txt");
    // Through the seam, a path that goes through a symlink out of the repository is not indexed.
    indexedAlone("real/file.txt", SkipReason.NOT_REGULAR, 4, "escape-dir/secret.txt");
  }

  /**
   * Indexes the tree: {@code kept} is the one file indexed and found, {@code skipped} files are
   * counted under {@code reason}; then {@code named} is added through the seam, and still only
   * {@code kept} is indexed.
   */
  private void indexedAlone(String kept, SkipReason reason, int skipped, String named)
      throws Exception {
    try (HybridIndex index = TestRepos.open(root)) {
      IndexRunStats stats = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(stats.skipped()).containsEntry(reason, skipped);
      assertThat(index.search("needle", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactly(kept);
      index.update(dev.prismindex.index.IndexUpdateRequest.of("r2", List.of(
          dev.prismindex.index.IndexFileChange.of(named,
              dev.prismindex.index.IndexFileChangeKind.ADD))));
      assertThat(index.search("needle", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactly(kept);
      assertThat(index.engineStatus().files()).isEqualTo(1L);
    }
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void symlinksInAGitWorkTreeAreSkipped() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    write(root, "real/file.txt", "inside needle\n");
    write(outside, "secret.txt", "outside needle\n");
    Files.createSymbolicLink(root.resolve("real/loop"), root.resolve("real"));
    Files.createSymbolicLink(root.resolve("escape-dir"), outside);
    Files.createSymbolicLink(root.resolve("escape-file.txt"), outside.resolve("secret.txt"));
    assertThat(walk().paths()).containsExactly("real/file.txt");
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aFifoIsSkippedNeverOpenedInAGitWorkTree() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    fifosAreSkippedNeverOpened();
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aFifoIsSkippedNeverOpenedInAPlainTree() throws Exception {
    fifosAreSkippedNeverOpened();
  }

  /**
   * A named pipe in the tree (untracked: git refuses to add one) is counted as not regular and
   * never opened: opening it for reading would wait for a writer, for ever. Nor through the seam.
   */
  private void fifosAreSkippedNeverOpened() throws Exception {
    write(root, "src/Main.java", "class Main { void needle() {} }\n");
    Files.createDirectories(root.resolve("run"));
    Process mkfifo = new ProcessBuilder("mkfifo", root.resolve("run/pipe.java").toString())
        .inheritIO().start();
    assumeTrue(mkfifo.waitFor() == 0, "mkfifo failed");
    assertThat(walk().paths()).containsExactly("src/Main.java");
    indexedAlone("src/Main.java", SkipReason.NOT_REGULAR, 1, "run/pipe.java");
  }

  @Test
  void aNameThatDoesNotReadBackIsUnreadableInAGitWorkTree() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    namesThatDoNotReadBackAreUnreadable();
  }

  @Test
  void aNameThatDoesNotReadBackIsUnreadableInAPlainTree() throws Exception {
    namesThatDoNotReadBackAreUnreadable();
  }

  /**
   * A file and a directory whose names are not valid in this JVM's character set (bytes 0xFF,
   * 0xFE: in no locale's UTF-8, so the listing decodes them with replacement characters, which
   * name another file) are counted as unreadable, the directory once, and never read or indexed;
   * before, the plain walk listed a name that named no file and the git walk one of length 0.
   */
  private void namesThatDoNotReadBackAreUnreadable() throws Exception {
    write(root, "src/Main.java", "class Main { void needle() {} }\n");
    Process sh = new ProcessBuilder("sh", "-c", "B=$(printf '\\377\\376');"
        + " echo 'class B { void needle() {} }' > \"src/bad$B.java\"; mkdir \"dir$B\";"
        + " echo 'class C { void needle() {} }' > \"dir$B/C.java\"")
        .directory(root.toFile()).inheritIO().start();
    assertThat(sh.waitFor()).isZero();
    assertThat(walk().paths()).containsExactly("src/Main.java");
    indexedAlone("src/Main.java", SkipReason.UNREADABLE, 2, "src/bad\uFFFD\uFFFD.java");
  }

  /** Files kept and pruned by the directory rule; the index home is pruned too. */
  private void writePruneTree() throws Exception {
    for (String dir : List.of("node_modules", "vendor", "dist", "build", "target",
        ".prism-index", "module/target", "a/vendor", "mysrc/build", "src/node_modules",
        "src/x/node_modules")) {
      write(root, dir + "/f.txt", "x\n");
    }
    write(root, "src/main/java/org/x/target/T.java", "package org.x.target;\n");
    write(root, "src/build/g.txt", "a source package below src\n");
    write(root, "lib/src/vendor/v.txt", "below src\n");
    write(root, "src/ok.txt", "x\n");
  }

  private static final List<String> KEPT = List.of("lib/src/vendor/v.txt", "src/build/g.txt",
      "src/main/java/org/x/target/T.java", "src/ok.txt");

  @Test
  void prunedDirectoriesAndIndexHomeAreNeverWalked() throws Exception {
    writePruneTree();
    write(root, ".git/f.txt", "x\n"); // not a repository: the plain walk must prune it
    assertThat(walk().gitHead()).isNull();
    assertThat(walk().paths()).containsExactlyElementsOf(KEPT);
  }

  @Test
  void gitWalkPrunesByThePathRuleEvenTrackedFiles() throws Exception {
    assumeTrue(TestRepos.gitAvailable(), "git is not installed");
    git(root, "init", "-q");
    writePruneTree();
    git(root, "add", "-f", ".");
    git(root, "commit", "-q", "-m", "init");
    WalkResult result = walk();
    assertThat(result.gitHead()).hasSize(40);
    assertThat(result.paths()).containsExactlyElementsOf(KEPT);
  }

  @Test
  void outputDirectoriesArePrunedUnlessBelowSrc() {
    FileRules rules = new FileRules(List.of(), List.of(), false);
    assertThat(List.of("build", "module/target", "a/vendor", "dist", "mysrc/build",
        "src-gen/target", ".git", "a/.git", "node_modules", "src/node_modules"))
        .allMatch(rules::prunesDirectory);
    assertThat(List.of("src", "src/build", "a/src/b/target", "src/main/java/org/x/vendor",
        "buildSrc", "targets", "a/b"))
        .noneMatch(rules::prunesDirectory);
    assertThat(rules.underPrunedDirectory("module/build/B.java")).isTrue();
    assertThat(rules.underPrunedDirectory("src/main/java/org/x/target/T.java")).isFalse();
    assertThat(rules.underPrunedDirectory("build")).isFalse(); // a file named build
    assertThat(rules.underPrunedDirectory("src/node_modules/p.js")).isTrue();
  }
}
