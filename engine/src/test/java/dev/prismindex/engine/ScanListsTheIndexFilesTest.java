package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One git walk: exact search without an index ({@link ExactScan}, core's scanner over the
 * engine's walk) reads exactly the files the index holds, on a tree with a {@code .gitignore}, a
 * nested one, a {@code .prismignore}, a tracked file git would ignore, an untracked file, hidden
 * names, secret names, pruned directories and links to outside the repository.
 */
class ScanListsTheIndexFilesTest {

  @TempDir Path dir;

  @Test
  void theScannerAndTheIndexListTheSameFiles() throws Exception {
    Path root = Files.createDirectory(dir.resolve("repo"));
    Path outside = Files.createDirectory(dir.resolve("outside"));
    write(outside, "o.txt", "needle outside\n");
    write(root, "tracked.log", "needle, ignored but tracked\n");
    try (Git git = Git.init().setDirectory(root.toFile()).call()) {
      git.add().addFilepattern("tracked.log").call(); // tracked before .gitignore ignores it
      git.commit().setMessage("a log").setAuthor("t", "t@example.com").call();
    }
    write(root, ".gitignore", "# needle\n*.log\nbuild/\n");
    write(root, ".prismignore", "# needle\ngenerated/\n");
    write(root, "src/A.java", "class A { String s = \"needle\"; }\n");
    write(root, "src/sub/.gitignore", "# needle\nlocal.txt\n");
    write(root, "src/sub/local.txt", "needle, ignored by the nested .gitignore\n");
    write(root, "src/sub/kept.txt", "needle\n");
    write(root, "app.log", "needle, ignored\n");
    write(root, "tracked.log", "needle, ignored but tracked\n");
    write(root, "build/out.txt", "needle, in an ignored directory\n");
    write(root, "generated/G.java", "// needle, left out by .prismignore\n");
    write(root, ".github/workflow.yml", "needle: a hidden directory\n");
    write(root, ".env", "needle=a secret by name\n");
    write(root, "config/secrets.yaml", "needle: a secret by name\n");
    write(root, "node_modules/m/index.js", "// needle, a pruned directory\n");
    write(root, "package-lock.json", "{\"needle\": 1}\n");
    try (Git git = Git.init().setDirectory(root.toFile()).call()) {
      git.add().addFilepattern(".").call();
      git.add().addFilepattern("tracked.log").call();
      git.commit().setMessage("init").setAuthor("t", "t@example.com").call();
    }
    write(root, "untracked.txt", "needle, untracked\n");
    Files.createSymbolicLink(root.resolve("link-dir"), outside);
    Files.createSymbolicLink(root.resolve("link-file.txt"), outside.resolve("o.txt"));

    Set<String> indexed;
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(root)
        .semantic(false).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      indexed = new TreeSet<>(manifest(index).keySet());
      Set<String> found = new TreeSet<>();
      index.searchResult("needle", SearchOpts.literal(1_000, false)).hits()
          .forEach(h -> found.add(h.path()));
      assertThat(found).as("the index finds the needle in every file it holds")
          .isEqualTo(indexed);
    }
    Set<String> scanned = new TreeSet<>();
    ExactScan.collect(root, "needle", SearchOpts.literal(1_000, false))
        .forEach(h -> scanned.add(h.path()));

    assertThat(scanned).isEqualTo(indexed);
    assertThat(indexed)
        .contains(".gitignore", ".prismignore", "src/A.java", "src/sub/kept.txt", "tracked.log",
            "untracked.txt", ".github/workflow.yml", "package-lock.json")
        .doesNotContain("src/sub/local.txt", "app.log", "build/out.txt", "generated/G.java",
            ".env", "config/secrets.yaml", "node_modules/m/index.js", "link-file.txt",
            "link-dir/o.txt");
  }
}
