package dev.prismindex.cli;


import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.Environment;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.engine.testing.SegmentDamage;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code index} and {@code status}, and the index problems that map to exit code 3. */
class IndexAndStatusTest {

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    cli.smallRepository();
  }

  private Path lucene() {
    return repo.resolve(".prism-index").resolve("lucene");
  }

  @Test
  void indexJsonIsOneSummaryObject() {
    Result r = cli.run("index", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.outLines()).hasSize(1);
    JsonNode s = r.json().get(0);
    assertThat(s.get("added").asInt()).isEqualTo(4);
    assertThat(s.get("files").asInt()).isEqualTo(4);
    assertThat(s.get("chunks").asInt()).isPositive();
    assertThat(s.get("chunksWritten").asInt()).isEqualTo(s.get("chunks").asInt());
    assertThat(s.get("committed").asBoolean()).isTrue();
    assertThat(s.get("indexDir").asText()).isEqualTo(repo.resolve(".prism-index").toString());
    assertThat(s.has("durationMs")).isTrue();
    assertThat(s.get("skippedBy").isObject()).isTrue();
    assertThat(s.get("chunksEmbedded").asInt()).isPositive();
    assertThat(s.get("model").asText()).isEqualTo("fake-bag-of-words-64");
    assertThat(s.get("semanticCoverage").asDouble()).isEqualTo(1.0);
    assertThat(s.get("semantic").asText()).isEqualTo("available");

    JsonNode again = cli.run("index", "--json").json().get(0);
    assertThat(again.get("committed").asBoolean()).isFalse();
    assertThat(again.get("unchanged").asInt()).isEqualTo(4);
    assertThat(again.get("chunksEmbedded").asInt()).isZero();
  }

  @Test
  void noSemanticLeavesEmbeddingsForALaterRun() {
    JsonNode lexicalOnly = cli.run("index", "--no-semantic", "--json").json().get(0);
    assertThat(lexicalOnly.get("chunksEmbedded").asInt()).isZero();
    assertThat(lexicalOnly.get("semanticCoverage").asDouble()).isZero();
    JsonNode completed = cli.run("index", "--json").json().get(0);
    assertThat(completed.get("chunksEmbedded").asInt()).isEqualTo(completed.get("chunks").asInt());
    assertThat(completed.get("semanticCoverage").asDouble()).isEqualTo(1.0);
  }

  @Test
  void indexHumanSummaryNamesTheCounters() {
    Result r = cli.run("index");
    assertThat(r.exit()).isZero();
    assertThat(r.outLines().get(0)).startsWith("indexed 4 files seen in ")
        .endsWith("(4 added, 0 changed, 0 deleted, 0 unchanged, 0 skipped)");
    assertThat(r.out()).contains("  chunks   ").contains("  index    4 files, ");
    Result full = cli.run("index", "--full", "--verify");
    assertThat(full.exit()).isZero();
    assertThat(full.outLines().get(0)).contains("(4 added, 0 changed");
  }

  @Test
  void statusOfAFreshAStaleAndAnOutdatedIndex() throws Exception {
    cli.run("index");
    JsonNode ready = cli.run("status", "--json").json().get(0);
    assertThat(ready.get("state").asText()).isEqualTo("ready");
    assertThat(ready.get("searchable").asBoolean()).isTrue();
    assertThat(ready.get("files").asInt()).isEqualTo(4);
    assertThat(ready.get("changes").get("total").asInt()).isZero();
    assertThat(ready.get("updatedAt").asText()).endsWith("Z");
    assertThat(ready.get("sizeOnDiskBytes").asLong()).isPositive();

    cli.write("new.txt", "new file\n");
    Result stale = cli.run("status", "--json");
    assertThat(stale.exit()).isZero();
    assertThat(stale.json().get(0).get("state").asText()).isEqualTo("behind");
    assertThat(stale.json().get(0).get("changes").get("added").asInt()).isEqualTo(1);

    Result outdated = cli.run("status", "--json", "--max-refresh-files", "0");
    assertThat(outdated.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(outdated.json().get(0).get("state").asText()).isEqualTo("outdated");
    assertThat(outdated.err()).isEqualTo("prism-index status: index is stale: 1 files changed"
        + " since the last index run (more than --max-refresh-files 0); run `prism-index index`\n");

    Result human = cli.run("status");
    assertThat(human.out()).contains("state     behind").contains("files     4")
        .contains("changed   1 file since the last index run (1 added");
  }

  @Test
  void statusOfAMissingIndexIsExit3WithTheState() {
    Result r = cli.run("status", "--json");
    assertThat(r.exit()).isEqualTo(ExitCode.INDEX);
    JsonNode s = r.json().get(0);
    assertThat(s.get("state").asText()).isEqualTo("missing");
    assertThat(s.get("searchable").asBoolean()).isFalse();
    assertThat(r.err()).isEqualTo("prism-index status: no index at " + repo.resolve(".prism-index")
        + "; run `prism-index index`\n");
    assertThat(repo.resolve(".prism-index")).doesNotExist();
  }

  private void corrupt() throws Exception {
    try (Stream<Path> files = Files.list(lucene())) {
      for (Path f : files.filter(p -> !p.getFileName().toString().equals("write.lock")).toList()) {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
          for (long pos = 0; pos < Math.min(raf.length(), 64); pos++) {
            raf.seek(pos);
            raf.write(0x5A);
          }
        }
      }
    }
  }

  @Test
  void aCorruptIndexIsExit3UntilIndexRepairsIt() throws Exception {
    assertThat(cli.run("index").exit()).isZero();
    corrupt();
    Result search = cli.run("search", "duration");
    assertThat(search.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(search.err()).startsWith("prism-index search: corrupt index at "
        + repo.resolve(".prism-index")).endsWith(FIX);
    assertThat(search.err().strip()).doesNotContain("\n");

    Result status = cli.run("status", "--json");
    assertThat(status.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(status.json().get(0).get("state").asText()).isEqualTo("corrupt");

    // Unreadable as a whole: index rebuilds it from nothing, and says so (issue 41, item 2).
    Result incremental = cli.run("index");
    assertThat(incremental.exit()).as(incremental.toString()).isZero();
    assertThat(incremental.err()).startsWith("prism-index index: the index at "
        + repo.resolve(".prism-index") + " was damaged (").endsWith("); rebuilt it from the files\n");
    assertThat(cli.run("search", "parseDuration", "--json").json()).isNotEmpty();
    assertThat(cli.run("status", "--verify").exit()).isZero();
  }

  private static final String CORRUPT = "prism-index %s: corrupt index at %s (";
  private static final String FIX = "; run `prism-index index` to repair it\n";

  private void assertCorrupt(Result r, String command) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.INDEX);
    assertThat(r.err()).startsWith(String.format(CORRUPT, command, repo.resolve(".prism-index")))
        .endsWith(FIX);
    assertThat(r.err().strip()).doesNotContain("\n");
  }

  @Test
  void randomBytesInStoredFieldsMakeSearchAndStatusExit3NamingIndexFull() throws Exception {
    SegmentDamage.generate(repo, 60);
    assertThat(cli.run("index").exit()).isZero();
    // The whole stored-fields part (its header and footer kept): every hit's stored fields are
    // damaged. (Since the manifest is read from doc values, a search reads the stored fields of
    // its hits only; damage elsewhere in them is found by status, which verifies checksums.)
    SegmentDamage.garble(repo.resolve(".prism-index"), ".fdt", 1 << 24);

    assertCorrupt(cli.run("search", "method7Value"), "search");
    Result json = cli.run("search", "method7Value", "--json");
    assertCorrupt(json, "search");
    assertThat(json.out()).isEmpty();
    // Literal search reads no stored field (paths and the manifest are doc values, lines come
    // from the files), but the index is known to be damaged now: it is refused too (issue 41).
    assertCorrupt(cli.run("search", "method7Value3(", "--mode", "literal", "--json"), "search");
    assertCorrupt(cli.run("status"), "status");
    Result status = cli.run("status", "--json");
    assertCorrupt(status, "status");
    assertThat(status.json().get(0).get("state").asText()).isEqualTo("corrupt");
    assertThat(status.json().get(0).get("problem").asText()).endsWith(FIX.strip());

    Result index = cli.run("index");
    assertThat(index.exit()).as(index.toString()).isZero();
    assertThat(index.err()).contains("was damaged (");
    assertThat(cli.run("status", "--verify").exit()).isZero();
    assertThat(cli.run("search", "method7Value3", "--json").json()).isNotEmpty();
  }

  @Test
  void damageNoSearchReadsIsFoundByStatusAndByIndexVerify() throws Exception {
    SegmentDamage.generate(repo, 60);
    assertThat(cli.run("index").exit()).isZero();
    SegmentDamage.garble(repo.resolve(".prism-index"), ".doc");

    Result status = cli.run("status");
    assertCorrupt(status, "status");
    assertThat(status.out()).startsWith("state     corrupt");
    assertThat(status.err()).contains("checksum failed");
    assertCorrupt(cli.run("status", "--verify"), "status");
    assertThat(cli.run("status", "--verify", "--json").json().get(0).get("state").asText())
        .isEqualTo("corrupt");
    Result repaired = cli.run("index", "--verify");
    assertThat(repaired.exit()).as(repaired.toString()).isZero();
    assertThat(repaired.err()).contains("was damaged (").contains("checksum failed");
    Result ready = cli.run("status", "--verify", "--json");
    assertThat(ready.exit()).as(ready.toString()).isZero();
    assertThat(ready.json().get(0).get("state").asText()).isEqualTo("ready");
  }

  @Test
  void aPrismIndexFileIsNotOursSoEveryCommandSaysSoAndLeavesIt() throws Exception {
    Path home = repo.resolve(".prism-index");
    Files.writeString(home, "my notes\n");
    String message = "prism-index %s: " + home + " is not a directory, so it cannot hold the"
        + " index; remove it, or choose another index directory with --index-dir DIR (or"
        + " PRISM_INDEX_DIR)\n";
    for (String[] args : List.of(new String[] {"index"}, new String[] {"index", "--full"},
        new String[] {"search", "duration"}, new String[] {"search", "duration", "--json"},
        new String[] {"status"})) {
      Result r = cli.run(args);
      assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.INDEX);
      assertThat(r.err()).isEqualTo(String.format(message, args[0]));
    }
    JsonNode status = cli.run("status", "--json").json().get(0);
    assertThat(status.get("state").asText()).isEqualTo("missing");
    assertThat(status.get("problem").asText()).contains("is not a directory");
    assertThat(Files.readString(home)).isEqualTo("my notes\n");
  }

  @Test
  void aLuceneEntryThatIsAFileIsCorruptAndIndexReplacesIt() throws Exception {
    assertThat(cli.run("index").exit()).isZero();
    try (Stream<Path> files = Files.list(lucene())) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(lucene());
    Files.writeString(lucene(), "not a directory\n");
    for (String[] args : List.of(new String[] {"status"},
        new String[] {"search", "duration", "--json"})) {
      Result r = cli.run(args);
      assertCorrupt(r, args[0]);
      assertThat(r.err()).contains(lucene() + ": not a directory");
    }
    assertThat(cli.run("status", "--json").json().get(0).get("state").asText())
        .isEqualTo("corrupt");

    // index repairs it (the entry replaced, the index built again) and says so.
    Result full = cli.run("index");
    assertThat(full.exit()).as(full.toString()).isZero();
    assertThat(full.err()).contains(lucene() + ": not a directory")
        .endsWith("); rebuilt it from the files\n");
    assertThat(lucene()).isDirectory();
    assertThat(cli.run("status").exit()).isZero();
    assertThat(cli.run("search", "parseDuration", "--json").json()).isNotEmpty();
  }

  @Test
  void anIncompatibleIndexIsExit3NamingBothVersions() throws Exception {
    assertThat(cli.run("index").exit()).isZero();
    try (FSDirectory dir = FSDirectory.open(lucene());
        IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      Map<String, String> data;
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        data = new HashMap<>(r.getIndexCommit().getUserData());
      }
      data.put("prism.format", "0");
      w.setLiveCommitData(data.entrySet(), true);
      w.commit();
    }
    Result r = cli.run("search", "duration", "--json");
    assertThat(r.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(r.err()).matches("prism-index search: incompatible index at .*: format version 0"
        + " found, \\S+ expected; run `prism-index index --full`\\n");
    assertThat(cli.run("status", "--json").json().get(0).get("state").asText())
        .isEqualTo("incompatible");
    assertThat(cli.run("index", "--full").exit()).isZero();
    assertThat(cli.run("search", "duration", "--json").exit()).isZero();
  }

  @Test
  void debugPrintsTheStackTraceAndOtherwiseErrorsAreOneLine() throws Exception {
    assertThat(cli.run("index").exit()).isZero();
    corrupt();
    Result quiet = cli.run("search", "duration");
    assertThat(quiet.err().lines().count()).isEqualTo(1);
    Result debug = cli.run("search", "duration", "--debug");
    assertThat(debug.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(debug.err().lines().count()).isGreaterThan(5);
    assertThat(debug.err()).contains("\tat dev.prismindex.");
  }

  @Test
  void aLockedIndexFailsIndexingButSearchAnswersFromTheLastCommit() throws Exception {
    assertThat(cli.run("index").exit()).isZero();
    cli.write("src/main/java/demo/Late.java", "class Late { int platypus; }\n");
    try (FSDirectory dir = FSDirectory.open(lucene());
        IndexWriter holder = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      assertThat(holder.isOpen()).isTrue();
      Result index = cli.run("index");
      assertThat(index.exit()).isEqualTo(ExitCode.FAILURE);
      assertThat(index.err()).isEqualTo("prism-index index: the index at "
          + repo.resolve(".prism-index") + " is being written by another process; run the"
          + " command again when it has finished\n");
      Result search = cli.run("search", "parseDuration");
      assertThat(search.exit()).isZero();
      assertThat(search.err()).contains("1 changed files not re-indexed (an indexing run is"
          + " writing the index)");
      assertThat(search.out()).contains("Duration.java:5");
    }
  }

  @Test
  void jsonAnswersFromTheLastCommitSayAnIndexingRunHeldTheIndex() throws Exception {
    assertThat(cli.run("index").exit()).isZero();
    JsonNode fresh = cli.run("search", "parseDuration", "--json").json().get(0);
    assertThat(fresh.get("freshness").get("skippedBecauseLocked").asBoolean()).isFalse();
    assertThat(fresh.get("freshness").get("checked").asBoolean()).isTrue();

    cli.write("src/main/java/demo/Late.java", "class Late { int platypus; }\n");
    try (FSDirectory dir = FSDirectory.open(lucene());
        IndexWriter holder = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      assertThat(holder.isOpen()).isTrue();
      Result search = cli.run("search", "parseDuration", "--json");
      assertThat(search.exit()).as(search.toString()).isZero();
      assertThat(search.json()).isNotEmpty().allSatisfy(hit -> {
        JsonNode f = hit.get("freshness");
        assertThat(f.get("skippedBecauseLocked").asBoolean()).isTrue();
        assertThat(f.get("changedFiles").asInt()).isEqualTo(1);
        assertThat(f.get("refreshedFiles").asInt()).isZero();
      });
      assertThat(search.err()).isEqualTo("prism-index search: note: 1 changed files not"
          + " re-indexed (an indexing run is writing the index); answering from the last index"
          + " run\n");
      Result none = cli.run("search", "platypus", "--json", "--mode", "literal");
      assertThat(none.exit()).isZero();
      assertThat(none.out()).isEmpty();
      assertThat(none.err()).contains("answering from the last index run");
    }
    JsonNode caughtUp = cli.run("search", "platypus", "--json", "--mode", "literal").json().get(0);
    assertThat(caughtUp.get("freshness").get("skippedBecauseLocked").asBoolean()).isFalse();
    assertThat(caughtUp.get("freshness").get("refreshedFiles").asInt()).isEqualTo(1);
  }

  /**
   * An index on a read-only file system (a shared volume, a sandbox's mount): searches answer
   * from its last commit and say why; indexing fails with that reason. Before, every search that
   * found a changed file failed on {@code write.lock}. Root makes the home read-only with a bind
   * mount, anyone else by its permissions; where neither is possible the test is skipped.
   */
  @Test
  void aReadOnlyIndexAnswersFromItsLastCommitAndSaysWhy() throws Exception {
    assertThat(cli.run("index").exit()).isZero();
    cli.write("src/main/java/demo/Late.java", "class Late { int platypus; }\n");
    Path home = repo.resolve(".prism-index");
    boolean mounted = readOnly(home);
    try {
      assumeTrue(!Files.isWritable(lucene()), "no way to make a directory read-only here");
      Result search = cli.run("search", "parseDuration", "--json");
      assertThat(search.exit()).as(search.toString()).isZero();
      assertThat(search.json()).isNotEmpty().allSatisfy(hit -> {
        JsonNode f = hit.get("freshness");
        assertThat(f.get("skippedBecauseLocked").asBoolean()).isTrue();
        assertThat(f.get("indexReadOnly").asBoolean()).isTrue();
        assertThat(f.get("changedFiles").asInt()).isEqualTo(1);
      });
      assertThat(search.err()).isEqualTo("prism-index search: note: 1 changed files not"
          + " re-indexed (the index is read-only); answering from the last index run\n");
      Result index = cli.run("index");
      assertThat(index.exit()).isEqualTo(ExitCode.FAILURE);
      assertThat(index.err()).startsWith("prism-index index: the index at " + home
          + " is read-only;");
    } finally {
      if (mounted) {
        assertThat(new ProcessBuilder("umount", home.toString()).inheritIO().start().waitFor())
            .isZero();
      } else {
        for (Path d : List.of(home, lucene())) {
          Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
      }
    }
    Result caughtUp = cli.run("search", "platypus", "--mode", "literal");
    assertThat(caughtUp.exit()).isZero();
    assertThat(caughtUp.out()).contains("Late.java");
  }

  /** Makes {@code dir} read-only: a read-only bind mount as root (true), else its permissions. */
  private boolean readOnly(Path dir) throws Exception {
    if ("root".equals(System.getProperty("user.name"))) {
      Process mount = new ProcessBuilder("mount", "--bind", "-o", "ro", dir.toString(),
          dir.toString()).redirectErrorStream(true).start();
      mount.getInputStream().readAllBytes();
      return mount.waitFor() == 0;
    }
    for (Path d : List.of(lucene(), dir)) {
      Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    return false;
  }

  @Test
  void progressIsShownOnlyOnATerminal() {
    cli.stderrTerminal = false;
    assertThat(cli.run("index").err()).isEmpty();
  }

  @Test
  void statusHumanOutputOfAFreshIndex() {
    cli.run("index");
    Result r = cli.run("status");
    assertThat(r.exit()).isZero();
    List<String> lines = r.outLines();
    assertThat(lines.get(0)).isEqualTo("state     ready");
    assertThat(r.out()).contains("semantic  100% of chunks embedded, model fake-bag-of-words-64")
        .contains("model     fake-bag-of-words-64 (available)")
        .contains("changed   nothing since the last index run");
    cli.model = Environment.Model.NONE;
    assertThat(cli.run("status").out()).contains("semantic  unavailable (embedding model"
        + " unavailable: ").contains("model     none available");
  }
}
