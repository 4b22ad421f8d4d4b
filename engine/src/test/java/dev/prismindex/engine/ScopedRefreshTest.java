package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.commitData;
import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.IndexInternals.vectorStats;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.internal.store.Schema;
import dev.prismindex.engine.spi.FileEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RefreshOptions#withScope}: a scoped refresh equals a whole one for changes in scope. */
class ScopedRefreshTest {

  @TempDir Path root;
  @TempDir Path homes;

  private HybridIndex open(String home) throws IOException {
    return HybridIndex.open(HybridIndexOptions.builder(root).home(homes.resolve(home))
        .semantic(false).build());
  }

  /** A git repository (JGit) with ignore rules at two levels and files in and out of the scope. */
  private void gitFixture() throws Exception {
    write(root, ".gitignore", "*.log\ngenerated/\n");
    write(root, "src/main/App.java", "class App { void start() {} }\n");
    write(root, "src/main/Util.java", "class Util { int helper() { return 1; } }\n");
    write(root, "src/main/old/Legacy.java", "class Legacy { void retired() {} }\n");
    write(root, "src/main/.gitignore", "scratch.txt\n");
    write(root, "docs/guide.md", "# Guide\nThe outside file.\n");
    write(root, "docs/gone.md", "# Gone\n");
    try (Git git = Git.init().setDirectory(root.toFile()).call()) {
      git.add().addFilepattern(".").call();
      git.commit().setMessage("init").setAuthor("t", "t@example.com")
          .setCommitter("t", "t@example.com").setSign(false).call();
    }
  }

  /** Sets every file's mtime an hour back so stat data is provably safe under the racy rule. */
  private void ageFiles() throws IOException {
    FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(p, old);
      }
    }
  }

  /** What a run leaves in the index that does not depend on when it ran. */
  private static Map<String, String> contentOf(HybridIndex index) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (FileEntry e : manifest(index).values()) {
      out.put(e.path(), e.hash() + " " + e.size() + " " + e.language() + " " + e.chunks());
    }
    Map<String, String> data = commitData(index);
    for (String key : List.of(Schema.META_FILES, Schema.META_CHUNKS, Schema.META_REVISION,
        Schema.META_SKIPPED, Schema.META_RULES)) {
      out.put("meta " + key, data.get(key));
    }
    return out;
  }

  @Test
  void aScopedRefreshEqualsAWholeRefreshForChangesInsideTheScope() throws Exception {
    gitFixture();
    try (HybridIndex scoped = open("scoped"); HybridIndex whole = open("whole")) {
      scoped.refresh(RefreshOptions.INCREMENTAL);
      whole.refresh(RefreshOptions.INCREMENTAL);
      assertThat(contentOf(scoped)).isEqualTo(contentOf(whole));

      write(root, "src/main/App.java", "class App { void startAgain() {} }\n"); // changed
      write(root, "src/main/New.java", "class New { void fresh() {} }\n"); // added
      Files.delete(root.resolve("src/main/Util.java")); // deleted
      deleteTree(root.resolve("src/main/old")); // a directory deleted
      write(root, "src/main/debug.log", "ignored by the root .gitignore\n");
      write(root, "src/main/scratch.txt", "ignored by src/main/.gitignore\n");
      write(root, "src/main/generated/Gen.java", "class Gen {}\n"); // ignored directory
      write(root, "src/main/node_modules/pkg/index.js", "module.exports = 1;\n"); // pruned

      IndexRunStats s = scoped.refresh(
          RefreshOptions.INCREMENTAL.withEmbedding(false).withScope(List.of("src/main")));
      whole.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false));

      assertThat(s.added()).isEqualTo(1);
      assertThat(s.changed()).isEqualTo(1);
      assertThat(s.deleted()).isEqualTo(2);
      assertThat(contentOf(scoped)).isEqualTo(contentOf(whole));
      assertThat(manifest(scoped)).containsOnlyKeys(".gitignore", "src/main/.gitignore",
          "src/main/App.java", "src/main/New.java", "docs/guide.md", "docs/gone.md");
      assertThat(scoped.search("startAgain", SearchOpts.lexical(5))).extracting(Hit::path)
          .containsExactly("src/main/App.java");
    }
  }

  @Test
  void filesOutsideTheScopeAreNeitherReadNorDeleted() throws Exception {
    gitFixture();
    ageFiles();
    try (HybridIndex index = open("home")) {
      index.refresh(RefreshOptions.INCREMENTAL);
      Map<String, FileEntry> before = manifest(index);
      write(root, "docs/guide.md", "# Guide\nAn edit outside the scope.\n");
      Files.delete(root.resolve("docs/gone.md"));
      write(root, "src/main/App.java", "class App { void restart() {} }\n");

      IndexRunStats s = index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false)
          .withScope(List.of("src/main/App.java", "src/main/Util.java")));

      assertThat(s.filesSeen()).isEqualTo(2);
      assertThat(s.hashed()).as("the unchanged file in scope is proven by stat").isEqualTo(1);
      assertThat(s.changed()).isEqualTo(1);
      assertThat(s.deleted()).isZero();
      Map<String, FileEntry> after = manifest(index);
      assertThat(after.get("docs/guide.md")).isEqualTo(before.get("docs/guide.md"));
      assertThat(after).containsKey("docs/gone.md");
      assertThat(index.engineStatus().files()).isEqualTo(after.size());
    }
  }

  @Test
  void aScopeBelowAnIgnoredOrPrunedDirectoryYieldsNothingAndDeletesWhatIsIndexedThere()
      throws Exception {
    gitFixture();
    try (HybridIndex index = open("home")) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "src/main/generated/Gen.java", "class Gen {}\n");
      write(root, "node_modules/pkg/index.js", "module.exports = 1;\n");
      IndexRunStats s = index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false).withScope(
          List.of("src/main/generated/Gen.java", "node_modules/pkg", "src/main/debug.log")));
      assertThat(s.filesSeen()).isZero();
      assertThat(s.committed()).isFalse();

      // A tracked file stays indexed until git stops tracking it and ignores it.
      write(root, "src/main/.gitignore", "scratch.txt\nApp.java\n");
      try (Git git = Git.open(root.toFile())) {
        git.rm().setCached(true).addFilepattern("src/main/App.java").call();
      }
      s = index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false)
          .withScope(List.of("src/main")));
      assertThat(s.deleted()).isEqualTo(1);
      assertThat(manifest(index)).doesNotContainKey("src/main/App.java")
          .containsKey("src/main/Util.java");
    }
  }

  @Test
  void theSkipCountsAndRulesOfTheLastWholeWalkAreKept() throws Exception {
    gitFixture();
    write(root, "config/.env", "TOKEN=1\n");
    try (HybridIndex index = open("home")) {
      index.refresh(RefreshOptions.INCREMENTAL);
      Map<String, String> before = commitData(index);
      assertThat(before.get(Schema.META_SKIPPED)).isEqualTo("secret=1");

      write(root, "src/main/.env.local", "TOKEN=2\n");
      write(root, "src/main/App.java", "class App { void again() {} }\n");
      IndexRunStats s = index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false)
          .withScope(List.of("src/main")));

      assertThat(s.committed()).isTrue();
      assertThat(s.skipped()).containsEntry(SkipReason.SECRET, 1);
      Map<String, String> after = commitData(index);
      assertThat(after.get(Schema.META_SKIPPED)).isEqualTo(before.get(Schema.META_SKIPPED));
      assertThat(after.get(Schema.META_RULES)).isEqualTo(before.get(Schema.META_RULES));
    }
  }

  @Test
  void outsideGitAScopedRefreshEqualsAWholeOneAndNeverFollowsALink() throws Exception {
    write(root, "a/one.txt", "one\n");
    write(root, "a/b/two.txt", "two\n");
    write(root, "c/three.txt", "three\n");
    Path outside = homes.resolve("outside");
    write(outside, "secret/four.txt", "four\n");
    Files.createSymbolicLink(root.resolve("a/link"), outside.resolve("secret"));
    try (HybridIndex scoped = open("scoped"); HybridIndex whole = open("whole")) {
      scoped.refresh(RefreshOptions.INCREMENTAL);
      whole.refresh(RefreshOptions.INCREMENTAL);
      write(root, "a/b/two.txt", "two, edited\n");
      write(root, "a/b/five.txt", "five\n");
      Files.delete(root.resolve("a/one.txt"));

      IndexRunStats s = scoped.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false)
          .withScope(List.of("a", "a/link/four.txt")));
      whole.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false));

      assertThat(s.added()).isEqualTo(1);
      assertThat(s.changed()).isEqualTo(1);
      assertThat(s.deleted()).isEqualTo(1);
      assertThat(contentOf(scoped)).isEqualTo(contentOf(whole));
      assertThat(manifest(scoped)).containsOnlyKeys("a/b/two.txt", "a/b/five.txt",
          "c/three.txt");
    }
  }

  @Test
  void aScopedCommitCountsCoveredChunksWithoutWalkingTheIndex() throws Exception {
    write(root, "a.py", TestRepos.pyFunction("first", "alpha") + TestRepos.pyFunction("second",
        "beta"));
    write(root, "b.py", TestRepos.pyFunction("third", "gamma"));
    write(root, "c.py", TestRepos.pyFunction("fourth", "delta"));
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root)
        .home(homes.resolve("home")).embedder(TestEmbedders.fake()).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.engineStatus().coverage().complete()).isTrue();

      // One chunk of a.py keeps its vector, one is new; b.py's is gone; d.py's is new.
      write(root, "a.py", TestRepos.pyFunction("first", "alpha") + TestRepos.pyFunction("second",
          "changed"));
      Files.delete(root.resolve("b.py"));
      write(root, "d.py", TestRepos.pyFunction("fifth", "epsilon"));
      index.refresh(RefreshOptions.INCREMENTAL.withEmbedding(false)
          .withScope(List.of("a.py", "b.py", "d.py")));

      var truth = vectorStats(index);
      Map<String, String> data = commitData(index);
      assertThat(truth.chunks()).isEqualTo(4);
      assertThat(truth.chunksEmbedded()).isEqualTo(2); // a.py's first, c.py's
      assertThat(data.get(Schema.META_CHUNKS)).isEqualTo("4");
      assertThat(data.get(Schema.META_CHUNKS_EMBEDDED)).isEqualTo("2");
      assertThat(data.get(Schema.META_VECTORS)).isEqualTo(Long.toString(truth.vectors()));
      assertThat(index.engineStatus().coverage().missing()).isEqualTo(2);

      index.refresh(RefreshOptions.INCREMENTAL.withScope(List.of("a.py", "d.py")));
      assertThat(index.engineStatus().coverage().complete()).isTrue();
      assertThat(commitData(index).get(Schema.META_CHUNKS_EMBEDDED)).isEqualTo("4");
    }
  }

  @Test
  void scopePathsAreCheckedAndNormalised() {
    RefreshOptions r = RefreshOptions.INCREMENTAL
        .withScope(List.of("src/b/c.txt", "src/", "docs/a.md", "src-x"));
    assertThat(r.scope()).containsExactly("docs/a.md", "src", "src-x");
    assertThat(RefreshOptions.INCREMENTAL.withScope(List.of()).scope()).isEmpty();
    assertThat(RefreshOptions.INCREMENTAL.withScope(Set.of("a")))
        .isEqualTo(RefreshOptions.INCREMENTAL.withScope(List.of("a/")));
    for (String bad : List.of("", "/", "/etc/passwd", "../x", "a/../b", "a/./b", "a//b",
        "a\\b", "./a", "a\0b")) {
      assertThatThrownBy(() -> RefreshOptions.INCREMENTAL.withScope(List.of(bad)))
          .as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> RefreshOptions.FULL.withScope(List.of("a")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
