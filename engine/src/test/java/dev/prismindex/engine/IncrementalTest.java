package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.spi.FileEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IncrementalTest {

  @TempDir Path root;

  private static List<String> commitFiles(Path root) throws IOException {
    try (Stream<Path> s = Files.list(root.resolve(".prism-index/lucene"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("segments_"))
          .sorted().toList();
    }
  }

  /** Sets every file's mtime an hour back so stat data is provably safe under the racy rule. */
  private void ageFiles() throws IOException {
    FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile).filter(p -> !p.toString().contains(".prism-index"))
          .toList()) {
        Files.setLastModifiedTime(p, old);
      }
    }
  }

  @Test
  void editingOneFileReplacesExactlyThatFilesDocuments() throws Exception {
    write(root, "a.java", "class A { void alpha() {} }\n");
    write(root, "b.java", "class B { void beta() {} }\n");
    write(root, "c.py", "def gamma():\n    return 1\n");
    ageFiles();
    try (HybridIndex index = TestRepos.open(root)) {
      IndexRunStats first = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(first.added()).isEqualTo(3);
      assertThat(first.hashed()).isEqualTo(3);
      assertThat(first.committed()).isTrue();
      Map<String, FileEntry> before = manifest(index);

      write(root, "b.java", "class B { void betaRenamedMethod() {} }\n");
      IndexRunStats second = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.changed()).isEqualTo(1);
      assertThat(second.added()).isZero();
      assertThat(second.deleted()).isZero();
      assertThat(second.unchanged()).isEqualTo(2);
      assertThat(second.hashed()).as("only the edited file is hashed").isEqualTo(1);
      assertThat(second.chunksWritten()).isEqualTo(1);
      Map<String, FileEntry> after = manifest(index);
      assertThat(after.get("a.java")).isEqualTo(before.get("a.java"));
      assertThat(after.get("c.py")).isEqualTo(before.get("c.py"));
      assertThat(after.get("b.java").hash()).isNotEqualTo(before.get("b.java").hash());
      assertThat(index.search("betaRenamedMethod", SearchOpts.lexical(5)))
          .extracting(Hit::path).containsExactly("b.java");
      assertThat(index.engineStatus().files()).isEqualTo(3);
      assertThat(index.engineStatus().chunks()).isEqualTo(3);
    }
  }

  @Test
  void aRunWithNoChangesWritesNoCommit() throws Exception {
    write(root, "a.txt", "alpha\n");
    write(root, "b.txt", "beta\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      List<String> commits = commitFiles(root);
      var updatedAt = index.engineStatus().updatedAt();
      for (RefreshOptions o : List.of(RefreshOptions.INCREMENTAL, RefreshOptions.VERIFY)) {
        IndexRunStats again = index.refresh(o);
        assertThat(again.committed()).isFalse();
        assertThat(again.added() + again.changed() + again.deleted()).isZero();
        assertThat(again.unchanged()).isEqualTo(2);
      }
      assertThat(commitFiles(root)).isEqualTo(commits);
      assertThat(index.engineStatus().updatedAt()).isEqualTo(updatedAt);
    }
  }

  @Test
  void racyTimestampRuleDecidesWhenStatMaySkipHashing() throws Exception {
    write(root, "a.txt", "alpha\n");
    ageFiles();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).hashed()).isZero();
      assertThat(index.refresh(RefreshOptions.VERIFY).hashed()).isEqualTo(1);
    }
    // Same size and mtime, but the mtime is not older than the recording time minus the margin:
    // the file must be hashed, and a same-size edit is found.
    Path fresh = root.resolve("fresh");
    Files.createDirectories(fresh);
    write(fresh, "f.txt", "one\n");
    FileTime t = FileTime.from(Instant.parse("2030-01-01T00:00:00Z"));
    Files.setLastModifiedTime(fresh.resolve("f.txt"), t);
    Clock clock = Clock.fixed(Instant.parse("2030-01-01T00:00:01Z"), ZoneOffset.UTC);
    try (HybridIndex index = HybridIndex.open(HybridIndexOptions.builder(fresh).clock(clock).build())) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(fresh, "f.txt", "two\n");
      Files.setLastModifiedTime(fresh.resolve("f.txt"), t);
      IndexRunStats r = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(r.hashed()).isEqualTo(1);
      assertThat(r.changed()).isEqualTo(1);
    }
  }

  @Test
  void touchedButIdenticalFileRefreshesItsStatOnce() throws Exception {
    write(root, "a.txt", "alpha\n");
    ageFiles();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      Files.setLastModifiedTime(root.resolve("a.txt"), FileTime.from(Instant.now().minusSeconds(60)));
      IndexRunStats touched = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(touched.hashed()).isEqualTo(1);
      assertThat(touched.unchanged()).isEqualTo(1);
      assertThat(touched.changed()).isZero();
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).hashed()).isZero();
    }
  }

  @Test
  void deleteAndRename() throws Exception {
    write(root, "keep.txt", "stay here\n");
    write(root, "gone.txt", "vanishing needle\n");
    write(root, "old/name.txt", "moving needle\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      Files.delete(root.resolve("gone.txt"));
      Files.createDirectories(root.resolve("new"));
      Files.move(root.resolve("old/name.txt"), root.resolve("new/name.txt"));
      IndexRunStats r = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(r.deleted()).isEqualTo(2);
      assertThat(r.added()).isEqualTo(1);
      assertThat(manifest(index)).containsOnlyKeys("keep.txt", "new/name.txt");
      assertThat(index.search("needle", SearchOpts.lexical(10))).extracting(Hit::path)
          .containsExactly("new/name.txt");
    }
  }

  @Test
  void hitsAreCheckedAgainstTheWorkingTreeBeforeTheyAreServed() throws Exception {
    write(root, "moved.txt", "alpha\nbeta\nthe needle line\ngamma\n");
    write(root, "deleted.txt", "another needle\n");
    write(root, "edited.txt", "needle removed soon\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "moved.txt", "new first\nnew second\nalpha\nbeta\nthe needle line\ngamma\n");
      Files.delete(root.resolve("deleted.txt"));
      write(root, "edited.txt", "nothing to see\n");
      List<Hit> hits = index.search("needle", SearchOpts.lexical(10));
      assertThat(hits).extracting(Hit::path).containsExactly("moved.txt");
      assertThat(hits.get(0).line()).isEqualTo(5);
      assertThat(hits.get(0).snippet()).isEqualTo("the needle line");
      Staleness st = index.staleness();
      assertThat(List.of(st.added(), st.modified(), st.deleted(), st.unchanged()))
          .containsExactly(0, 2, 1, 0);
      assertThat(st.isStale()).isTrue();
    }
  }

  @Test
  void fullRebuildReindexesEverything() throws Exception {
    write(root, "a.txt", "alpha\n");
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      IndexRunStats full = index.refresh(RefreshOptions.FULL);
      assertThat(full.committed()).isTrue();
      assertThat(full.added()).isEqualTo(1);
      assertThat(index.engineStatus().files()).isEqualTo(1);
      assertThat(index.search("alpha", SearchOpts.lexical(3))).hasSize(1);
    }
  }
}
