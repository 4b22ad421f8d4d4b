package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code .prismignore}: gitignore-syntax files that keep paths out of the index, at any level,
 * for tracked files too, in the git walk and the plain walk alike; a file that becomes ignored
 * leaves the index on the next refresh.
 */
class PrismIgnoreTest {

  @TempDir Path root;

  private List<String> walk() throws Exception {
    Path real = root.toRealPath();
    return new RepoWalker(real, real.resolve(".prism-index"),
        new FileRules(List.of(), List.of(), false)).walk().paths();
  }

  private void fixture() throws Exception {
    write(root, ".prismignore", "# generated code\n*.gen.java\nfixtures/\n!keep.gen.java\n");
    write(root, "src/.prismignore", "local/\n/Top.java\n");
    write(root, "src/A.java", "class A {}\n");
    write(root, "src/B.gen.java", "class B {}\n");
    write(root, "src/keep.gen.java", "class Keep {}\n");
    write(root, "src/Top.java", "class Top {}\n");
    write(root, "src/sub/Top.java", "class SubTop {}\n");
    write(root, "src/local/x.txt", "local\n");
    write(root, "src/fixtures2/ok.txt", "kept: not the ignored directory's name\n");
    write(root, "fixtures/data.txt", "ignored directory\n");
    write(root, "deep/fixtures/more.txt", "a name without a slash matches at any depth\n");
  }

  private static final List<String> KEPT = List.of(".prismignore", "src/.prismignore",
      "src/A.java", "src/fixtures2/ok.txt", "src/keep.gen.java", "src/sub/Top.java");

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void theWalkLeavesOutWhatThePrismignoreFilesExclude(boolean git) throws Exception {
    fixture();
    List<String> expected = new ArrayList<>(KEPT);
    if (git) {
      write(root, ".gitignore", "*.log\n");
      write(root, "out.log", "ignored by git\n");
      write(root, ".prismignore", Files.readString(root.resolve(".prismignore")) + "!out.log\n");
      try (Git g = Git.init().setDirectory(root.toFile()).call()) {
        // Tracked files are left out too: the rules are prism-index's, not git's.
        g.add().addFilepattern("src/B.gen.java").addFilepattern("fixtures/data.txt").call();
        g.commit().setMessage("init").setAuthor("t", "t@example.com").call();
      }
      expected.add(".gitignore");
    }
    expected.sort(null);
    assertThat(walk()).as("a ! line brings back nothing git ignores").isEqualTo(expected);
  }

  @Test
  void aFileThatBecomesIgnoredLeavesTheIndexOnTheNextRefreshAndComesBackWithoutTheRule()
      throws Exception {
    write(root, "src/Main.java", "class Main { void mainline() {} }\n");
    write(root, "gen/Parser.java", "class Parser { void generatedParser() {} }\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(paths(index, "generatedParser")).containsExactly("gen/Parser.java");

      write(root, ".prismignore", "gen/\n");
      Staleness s = index.staleness();
      assertThat(s.deleted()).as("the ignored file counts as deleted").isEqualTo(1);
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(manifest(index)).containsOnlyKeys(".prismignore", "src/Main.java");
      assertThat(paths(index, "generatedParser")).isEmpty();
      assertThat(index.searchResult("generatedParser", SearchOpts.literal(5, false)).hits())
          .isEmpty();

      Files.writeString(root.resolve(".prismignore"), "# nothing\n");
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(paths(index, "generatedParser")).containsExactly("gen/Parser.java");
    }
  }

  @Test
  void aScopedRefreshOfAnIgnoredPathDropsIt() throws Exception {
    write(root, "src/Main.java", "class Main { void mainline() {} }\n");
    write(root, "src/Scratch.java", "class Scratch { void scratchpad() {} }\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "src/.prismignore", "Scratch.java\n");
      index.refresh(RefreshOptions.INCREMENTAL.withScope(Set.of("src")));
      assertThat(manifest(index)).containsOnlyKeys("src/.prismignore", "src/Main.java");
    }
  }

  private static List<String> paths(HybridIndex index, String query) throws Exception {
    return index.search(query, SearchOpts.lexical(10)).stream().map(Hit::path).distinct()
        .toList();
  }
}
