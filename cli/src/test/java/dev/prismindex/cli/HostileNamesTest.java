package dev.prismindex.cli;

import dev.prismindex.cli.command.ExitCode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.prismindex.cli.Harness.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, item 3: file names and file content never drive the terminal. Real files whose names
 * hold ESC sequences, a newline and U+202E, in a git repository, indexed and searched through the
 * CLI: human output shows them escaped, NDJSON carries them exactly.
 */
public class HostileNamesTest {

  /** An SGR colour, an OSC "set window title" ended by BEL. */
  static final String ESCAPES = "evil\u001b[31mred\u001b]0;pwned\u0007.txt";
  /** A newline that would forge a hit line of its own. */
  static final String NEWLINE = "notes\nforged.java:99  1.000\nz.txt";
  /** A right-to-left override: shows as "exe.txt". */
  static final String BIDI = "\u202etxt.exe";
  /** A tab, C1 controls (CSI, NEL), DEL and an isolate. */
  static final String OTHERS = "tab\there\u009b2J\u0085\u007f\u2066x.txt";

  /** The only escape sequences the printer itself writes (Style). */
  public static final Pattern OWN_STYLES = Pattern.compile("\u001b\\[(?:1;31|35|32|33|2|1|0)m");

  @TempDir Path repo;
  Harness cli;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    Files.writeString(repo.resolve(ESCAPES), "needle one\n");
    Files.writeString(repo.resolve(NEWLINE), "needle two\n");
    Files.writeString(repo.resolve(BIDI), "needle \u202ethree\u001b[2J\u2067\u200f\n");
    Files.writeString(repo.resolve(OTHERS), "needle\tfour\n");
    try (Git git = Git.init().setDirectory(repo.toFile()).call()) {
      git.add().addFilepattern(".").call();
      git.commit().setMessage("hostile names").setAuthor("t", "t@example.com")
          .setCommitter("t", "t@example.com").setSign(false).call();
    }
    Result r = cli.run("index");
    assertThat(r.exit()).as(r.toString()).isZero();
  }

  /** Every C0 control but LF, DEL, every C1 control, line separators, bidi and invisible marks. */
  public static void assertNoRawControls(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean bad = (c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f)
          || c == 0x2028 || c == 0x2029 || c == 0x061c || c == 0x200e || c == 0x200f
          || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
      assertThat(bad).as("raw U+%04X at %d in:%n%s", (int) c, i, text).isFalse();
    }
  }

  @Test
  void humanSearchShowsHostileNamesAndSnippetsEscaped() {
    Result r = cli.run("search", "--mode", "literal", "needle");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertNoRawControls(r.out());
    assertNoRawControls(r.err());
    // Exact modes print grep's path:line:column:text lines.
    assertThat(r.outLines()).containsExactlyInAnyOrder(
        "evil\\u001B[31mred\\u001B]0;pwned\\u0007.txt:1:1:needle one",
        "notes\\nforged.java:99  1.000\\nz.txt:1:1:needle two",
        "\\u202Etxt.exe:1:1:needle \\u202Ethree\\u001B[2J\\u2067\\u200F",
        "tab\\there\\u009B2J\\u0085\\u007F\\u2066x.txt:1:1:needle four");
    assertThat(r.outLines()).noneMatch(l -> l.startsWith("forged.java"));
  }

  @Test
  void colourKeepsOnlyThePrintersOwnEscapes() {
    cli.stdoutTerminal = true;
    Result r = cli.run("search", "--mode", "literal", "needle");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("\u001b[35mevil\\u001B[31mred");
    assertNoRawControls(OWN_STYLES.matcher(r.out()).replaceAll(""));
  }

  @Test
  void rankedModesAndPathHitsAreEscapedToo() {
    for (String query : List.of("needle", "forged", "pwned", "txt")) {
      for (String mode : List.of("lexical", "literal")) {
        Result r = cli.run("search", "--mode", mode, query);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertNoRawControls(r.out());
        assertThat(r.outLines()).as(r.toString()).noneMatch(l -> l.startsWith("forged.java"));
      }
    }
  }

  @Test
  void ndjsonCarriesTheExactNames() throws Exception {
    Result r = cli.run("search", "--mode", "literal", "needle", "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.outLines()).hasSize(4);
    Set<String> paths = new TreeSet<>();
    for (JsonNode hit : r.json()) {
      paths.add(hit.get("path").asText());
      assertThat(repo.resolve(hit.get("path").asText())).isRegularFile();
    }
    assertThat(paths).containsExactlyInAnyOrder(ESCAPES, NEWLINE, BIDI, OTHERS);
    JsonNode bidi = r.json().stream().filter(h -> h.get("path").asText().equals(BIDI))
        .findFirst().orElseThrow();
    assertThat(bidi.get("snippet").asText()).isEqualTo("needle \u202ethree\u001b[2J\u2067\u200f");
    assertThat(r.out()).doesNotContain("\u001b", "\u0007");
  }

  @Test
  void statusAndErrorsEscapeTheRepositoryPath(@TempDir Path other) throws Exception {
    Path hostile = Files.createDirectories(
        other.resolve("re\u001b[2Jpo\nstate     ready\u202e"));
    Files.writeString(hostile.resolve("a.txt"), "hello\n");
    Harness h = new Harness(hostile);

    Result status = h.run("status");
    assertThat(status.exit()).as(status.toString()).isEqualTo(ExitCode.INDEX);
    assertNoRawControls(status.out());
    assertNoRawControls(status.err());
    assertThat(status.outLines()).filteredOn(l -> l.startsWith("state")).hasSize(1);
    assertThat(status.out()).contains("re\\u001B[2Jpo\\nstate     ready\\u202E");

    Result search = h.run("search", "hello");
    assertThat(search.exit()).as(search.toString()).isEqualTo(ExitCode.INDEX);
    assertNoRawControls(search.err());
    assertThat(search.err().strip()).doesNotContain("\n")
        .contains("re\\u001B[2Jpo\\nstate     ready\\u202E");
  }
}
