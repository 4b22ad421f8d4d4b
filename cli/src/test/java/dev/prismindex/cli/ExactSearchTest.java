package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact modes on the command line (issue 39, items 1 and 3): regex and literal search with
 * grep's flags, every match printed as it is found, in path and line order, with an index and
 * without one (core's scanner, with one note that an index is faster).
 */
class ExactSearchTest {

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    cli.write("b/second.txt", "Foo one\nfoo two\n-dash foo\n");
    cli.write("a/first.txt", "foo first\nno match here\n");
    cli.write("c/third.txt", "third foo\n");
    cli.write("c/.hidden.txt", "foo hidden\n");
    cli.write(".gitignore", "ignored.txt\n");
    cli.write("ignored.txt", "foo ignored\n");
    git("init", "-q", ".");
  }

  private void git(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).directory(repo.toFile()).inheritIO().start();
    assertThat(p.waitFor()).isZero();
  }

  @Test
  void withoutAnIndexTheScannerAnswersAndSaysAnIndexIsFaster() {
    Result r = cli.run("search", "-e", "foo+");
    assertThat(r.exit()).as(r.toString()).isZero();
    // the scanner reads the files the index would hold: hidden ones too, not what git ignores
    List<String> expected = List.of(
        "a/first.txt:1:1:foo first",
        "b/second.txt:2:1:foo two",
        "b/second.txt:3:7:-dash foo",
        "c/.hidden.txt:1:1:foo hidden",
        "c/third.txt:1:7:third foo");
    assertThat(r.outLines()).isEqualTo(expected);
    assertThat(r.err()).isEqualTo("note: no index at " + repo.resolve(".prism-index")
        + ": searched the files directly (an index makes this faster: run `prism-index"
        + " index`)\n");
    assertThat(Files.exists(repo.resolve(".prism-index"))).as("nothing created").isFalse();
    // The same answer from an index, without the note.
    assertThat(cli.run("index", "--no-semantic").exit()).isZero();
    Result indexed = cli.run("search", "-e", "foo+");
    assertThat(indexed.outLines()).isEqualTo(expected);
    assertThat(indexed.err()).isEmpty();
  }

  @Test
  void filesNotSearchedAreNamedForWhatLeftThemOut() throws IOException {
    Files.write(repo.resolve("a/blob.bin"), new byte[] {'f', 'o', 'o', 0, 1, 2});
    // Without an index the scanner skipped it: no index to leave it out.
    Result scanned = cli.run("search", "-e", "foo");
    assertThat(scanned.err()).endsWith(
        "\nnote: not searched: 1 file (binary 1); see docs/cli.md\n");
    assertThat(cli.run("index", "--no-semantic").exit()).isZero();
    Result indexed = cli.run("search", "-e", "foo");
    assertThat(indexed.err()).isEqualTo(
        "note: not searched: 1 file left out of the index (binary 1); see docs/cli.md\n");
    assertThat(scanned.outLines()).isNotEmpty().noneMatch(l -> l.startsWith("a/blob.bin"));
    assertThat(indexed.outLines()).isNotEmpty().noneMatch(l -> l.startsWith("a/blob.bin"));
  }

  @Test
  void rankedSearchesStillNeedAnIndex() {
    Result r = cli.run("search", "foo");
    assertThat(r.exit()).isEqualTo(ExitCode.INDEX);
    assertThat(r.err()).contains("no index at").contains("run `prism-index index`");
  }

  @Test
  void grepsFlags() {
    String none = repo.resolve("none").toString();
    assertThat(cli.run("search", "--index-dir", none, "-F", "-s", "Foo").outLines())
        .containsExactly("b/second.txt:1:1:Foo one");
    assertThat(cli.run("search", "--index-dir", none, "-F", "Foo").outLines())
        .as("the literal mode ignores case by default").hasSize(6);
    assertThat(cli.run("search", "--index-dir", none, "--regex", "Foo").outLines())
        .as("the regex mode matches it").containsExactly("b/second.txt:1:1:Foo one");
    // ripgrep's rule for -i, -s and -S: the last one wins.
    assertThat(cli.run("search", "--index-dir", none, "-i", "-s", "-e", "Foo").outLines())
        .hasSize(1);
    assertThat(cli.run("search", "--index-dir", none, "-s", "-i", "-e", "Foo").outLines())
        .hasSize(6);
    assertThat(cli.run("search", "--index-dir", none, "-S", "-e", "foo").outLines()).hasSize(6);
    assertThat(cli.run("search", "--index-dir", none, "-S", "-e", "Foo").outLines()).hasSize(1);
    // -e takes a pattern starting with '-'; several -e are any of them.
    assertThat(cli.run("search", "--index-dir", none, "-e", "-dash").outLines())
        .containsExactly("b/second.txt:3:1:-dash foo");
    assertThat(cli.run("search", "--index-dir", none, "-e", "first", "-e", "third")
        .outLines()).containsExactly("a/first.txt:1:5:foo first", "c/third.txt:1:1:third foo");
    assertThat(cli.run("search", "--index-dir", none, "-w", "-e", "fir").outLines()).isEmpty();
    assertThat(cli.run("search", "--index-dir", none, "-F", "-w", "first").outLines())
        .containsExactly("a/first.txt:1:5:foo first");
    assertThat(cli.run("search", "--index-dir", none, "-e", "o", "--limit", "2", "-s")
        .outLines()).hasSize(2);
    Result bad = cli.run("search", "--index-dir", none, "-e", "(?=x)");
    assertThat(bad.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).contains("invalid regex: ").contains("look-around is not supported");
  }

  @Test
  void jsonHitsCarryTheColumnAndEveryMatch() {
    List<JsonNode> hits = cli.run("search", "--index-dir", repo.resolve("none").toString(),
        "--json", "-e", "o+").json();
    assertThat(hits.get(0).get("path").asText()).as("hidden files are read").isEqualTo(".gitignore");
    JsonNode first = hits.get(1);
    assertThat(first.get("path").asText()).isEqualTo("a/first.txt");
    assertThat(first.get("mode").asText()).isEqualTo("regex");
    assertThat(first.get("column").asInt()).isEqualTo(2);
    assertThat(first.get("matches").toString())
        .isEqualTo("[{\"column\":2,\"endColumn\":4,\"text\":\"oo\"}]");
    JsonNode fooOne = hits.stream().filter(h -> h.get("path").asText().equals("b/second.txt")
        && h.get("line").asInt() == 1).findFirst().orElseThrow();
    assertThat(fooOne.get("matches").size()).as("Foo one: two matches").isEqualTo(2);
  }

  /**
   * A one-shot exact search probes the tree while it searches (issue 39): the hits it held are
   * printed only when no file changed; after a change, the change is indexed first and the answer
   * is the tree's (an added file's hit, none from a deleted one), and a change over
   * --max-refresh-files is refused before any hit is printed.
   */
  @Test
  void aChangeFoundWhileSearchingIsCaughtUpBeforeTheAnswer() throws IOException {
    assertThat(cli.run("index", "--no-semantic").exit()).isZero();
    List<JsonNode> current = cli.run("search", "--json", "--mode", "literal", "foo").json();
    assertThat(current).hasSize(6);
    assertThat(current.get(0).get("freshness").toString()).isEqualTo("{\"checked\":true,"
        + "\"changedFiles\":0,\"refreshedFiles\":0,\"skippedBecauseLocked\":false,"
        + "\"indexReadOnly\":false}");
    cli.write("d/fourth.txt", "new foo\n");
    Files.delete(repo.resolve("c/third.txt"));
    Result refused = cli.run("search", "--mode", "regex", "fo+", "--max-refresh-files", "1");
    assertThat(refused.exit()).as(refused.toString()).isEqualTo(ExitCode.INDEX);
    assertThat(refused.out()).isEmpty();
    List<JsonNode> after = cli.run("search", "--json", "--mode", "literal", "foo").json();
    assertThat(after).extracting(h -> h.get("path").asText() + ":" + h.get("line").asInt())
        .containsExactly("a/first.txt:1", "b/second.txt:1", "b/second.txt:2", "b/second.txt:3",
            "c/.hidden.txt:1", "d/fourth.txt:1");
    assertThat(after.get(0).get("freshness").get("changedFiles").asInt()).isEqualTo(2);
    assertThat(after.get(0).get("freshness").get("refreshedFiles").asInt()).isEqualTo(2);
  }

  /**
   * Streaming, shown by its effect: the first hit's sink deletes a file that sorts later; had the
   * answer been collected before it was printed, that file's match would be in it.
   */
  @Test
  void hitsArePrintedAsTheyAreFoundWithAndWithoutAnIndex() throws Exception {
    // Served from an index, candidates are verified a bounded window ahead of the output (on
    // every core, at most 2 runs of 8 files a core, 8 cores at most: 128 files): a file 300 files
    // after the first is read only after the first hit is printed.
    for (int i = 0; i < 300; i++) {
      cli.write(String.format("d/%03d.txt", i), "foo " + i + "\n");
    }
    for (boolean indexed : new boolean[] {false, true}) {
      cli.write("z/last.txt", "last foo\n");
      if (indexed) {
        assertThat(cli.run("index", "--no-semantic").exit()).isZero();
      }
      Path later = repo.resolve("z/last.txt");
      ByteArrayOutputStream seen = new ByteArrayOutputStream();
      PrintStream out = new PrintStream(new OutputStream() {
        @Override
        public void write(int b) {
          seen.write(b);
          try {
            Files.deleteIfExists(later);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }, true, StandardCharsets.UTF_8);
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int exit = cli.run(out, new PrintStream(err, true, StandardCharsets.UTF_8), "search",
          "--no-refresh", "-e", "foo", "-s");
      assertThat(exit).isZero();
      String printed = seen.toString(StandardCharsets.UTF_8);
      assertThat(printed).as("indexed " + indexed).contains("a/first.txt:1:1:foo first")
          .contains("d/299.txt:1:1:foo 299").doesNotContain("last");
    }
  }

  @Test
  void aPatternTheIndexCannotNarrowReadsEveryFileAndSaysSo() {
    assertThat(cli.run("index", "--no-semantic").exit()).isZero();
    Result r = cli.run("search", "-e", "\\w+ \\w+");
    assertThat(r.outLines()).hasSize(7);
    assertThat(r.err()).contains("note: the pattern has no trigram the index can use");
    assertThat(cli.run("search", "-e", "third").err()).isEmpty();
  }
}
