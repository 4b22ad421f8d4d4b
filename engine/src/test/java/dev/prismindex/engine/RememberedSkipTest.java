package dev.prismindex.engine;

import static dev.prismindex.engine.IndexInternals.manifest;
import static dev.prismindex.engine.TestRepos.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files left out by their content (binary, a private key) are remembered by their stat data like
 * indexed files: a no-change run skips them again without reading or hashing them, and the record
 * follows the file when it changes, becomes text, or goes away (issue 16).
 */
class RememberedSkipTest {

  @TempDir Path root;

  private static final String KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n"
      + "-----END RSA PRIVATE KEY-----\n";

  private void age() throws IOException {
    FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(Files::isRegularFile)
          .filter(p -> !p.toString().contains(".prism-index")).toList()) {
        Files.setLastModifiedTime(p, old);
      }
    }
  }

  private void binary(String path) throws IOException {
    Files.write(root.resolve(path), new byte[] {'n', 'e', 'e', 'd', 'l', 'e', 0, 1, 2});
  }

  @Test
  void aNoChangeRunReadsNoSkippedFileAgain() throws Exception {
    write(root, "a.txt", "alpha needle\n");
    binary("blob.bin");
    write(root, "deploy.txt", KEY);
    age();
    try (HybridIndex index = TestRepos.open(root)) {
      IndexRunStats first = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(first.hashed()).isEqualTo(2); // a.txt and blob.bin (the key is refused unhashed)
      assertThat(first.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1),
          Map.entry(SkipReason.PRIVATE_KEY, 1));

      IndexRunStats second = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.hashed()).as("nothing read: every verdict proven by stat data").isZero();
      assertThat(second.skipped()).isEqualTo(first.skipped());
      assertThat(second.committed()).isFalse();

      IndexRunStats verified = index.refresh(RefreshOptions.VERIFY);
      assertThat(verified.hashed()).as("--verify reads everything again").isEqualTo(2);
      assertThat(verified.skipped()).isEqualTo(first.skipped());
    }
  }

  @Test
  void aSkippedFileThatBecomesTextIsIndexedAndItsRecordGoes() throws Exception {
    binary("data.bin");
    write(root, "a.txt", "alpha\n");
    age();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      write(root, "data.bin", "now plain text with findme\n");
      IndexRunStats second = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.added()).isEqualTo(1);
      assertThat(second.skipped()).isEmpty();
      assertThat(index.search("findme", SearchOpts.lexical(5))).extracting(Hit::path)
          .containsExactly("data.bin");
      age();
      IndexRunStats third = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(third.skipped()).isEmpty();
      assertThat(third.unchanged()).isEqualTo(2);
      assertThat(index.search("findme", SearchOpts.lexical(5))).extracting(Hit::path)
          .containsExactly("data.bin");
      assertThat(index.engineStatus().files()).isEqualTo(2);
    }
  }

  @Test
  void anIndexedFileThatBecomesBinaryLeavesTheIndexAndIsRemembered() throws Exception {
    write(root, "a.txt", "alpha findme\n");
    write(root, "b.txt", "beta\n");
    age();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      binary("a.txt");
      age();
      IndexRunStats second = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.deleted()).isEqualTo(1);
      assertThat(second.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1));
      assertThat(index.search("findme", SearchOpts.lexical(5))).isEmpty();
      assertThat(manifest(index)).containsOnlyKeys("b.txt");
      IndexRunStats third = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(third.hashed()).isZero();
      assertThat(third.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1));
    }
  }

  @Test
  void aChangedOrDeletedSkippedFileIsJudgedAgainOrForgotten() throws Exception {
    binary("one.bin");
    binary("two.bin");
    age();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      Files.delete(root.resolve("one.bin"));
      Files.write(root.resolve("two.bin"), new byte[] {0, 0, 0, 0, 1});
      age();
      IndexRunStats second = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(second.hashed()).as("the changed binary is read again").isEqualTo(1);
      assertThat(second.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1));
      assertThat(second.committed()).isTrue();
      IndexRunStats third = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(third.hashed()).isZero();
      assertThat(third.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1));
      assertThat(third.committed()).isFalse();
      binary("one.bin"); // back, with a new mtime: read again
      IndexRunStats fourth = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(fourth.hashed()).isEqualTo(1);
    }
  }

  @Test
  void aFullRebuildStartsWithoutRecords() throws Exception {
    binary("one.bin");
    age();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      IndexRunStats full = index.refresh(RefreshOptions.FULL);
      assertThat(full.hashed()).isEqualTo(1);
      assertThat(full.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1));
      IndexRunStats after = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(after.hashed()).isZero();
      assertThat(after.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1));
    }
  }

  @Test
  void aScopedRefreshKeepsAndDropsOnlyTheRecordsBelowItsScope() throws Exception {
    Files.createDirectories(root.resolve("in"));
    Files.createDirectories(root.resolve("out"));
    binary("in/kept.bin");
    binary("in/gone.bin");
    binary("out/other.bin");
    write(root, "in/a.txt", "alpha\n");
    age();
    try (HybridIndex index = TestRepos.open(root)) {
      index.refresh(RefreshOptions.INCREMENTAL);
      Files.delete(root.resolve("in/gone.bin"));
      Files.delete(root.resolve("out/other.bin"));
      IndexRunStats scoped = index.refresh(RefreshOptions.INCREMENTAL.withScope(List.of("in")));
      assertThat(scoped.hashed()).as("the unchanged binary below the scope is not read").isZero();
      assertThat(scoped.committed()).as("the record of in/gone.bin is dropped").isTrue();
      IndexRunStats whole = index.refresh(RefreshOptions.INCREMENTAL);
      assertThat(whole.hashed()).isZero();
      assertThat(whole.skipped()).containsOnly(Map.entry(SkipReason.BINARY, 1));
      assertThat(whole.committed()).as("out/other.bin's record dropped by the whole walk").isTrue();
      assertThat(index.refresh(RefreshOptions.INCREMENTAL).committed()).isFalse();
    }
  }
}
