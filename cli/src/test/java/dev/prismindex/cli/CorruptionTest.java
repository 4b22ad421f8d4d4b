package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.Harness.Result;
import dev.prismindex.cli.command.ExitCode;
import dev.prismindex.engine.testing.SegmentDamage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41, item 2: corruption cannot hide. Random bytes in a file of each kind (postings
 * {@code .doc}, stored fields {@code .fdt}, terms {@code .tim}, norms {@code .nvd}, doc values
 * {@code .dvd}, the engine's gram index {@code .pgd}) used to leave {@code index} saying "up to
 * date, 0 changed" with exit 0 while {@code status} exited 3, and searches answered without a
 * note. Now {@code index} verifies the checksums, drops what is damaged and rebuilds it, and says
 * so; once any run has found the damage, searches refuse (exit 3, naming the repair) until then.
 */
class CorruptionTest {

  static final List<String> QUERIES = List.of("method7Value3", "method12Value40",
      "return x times");

  @TempDir Path repo;
  Harness cli;
  Path home;

  @BeforeEach
  void setUp() throws Exception {
    cli = new Harness(repo);
    home = repo.resolve(".prism-index");
    SegmentDamage.generate(repo, 60);
    Result index = cli.run("index");
    assertThat(index.exit()).as(index.toString()).isZero();
  }

  /** What every mode answers now, to compare with the answers after the repair. */
  private List<String> answers() {
    List<String> out = new java.util.ArrayList<>();
    for (String mode : List.of("lexical", "literal", "semantic", "hybrid")) {
      for (String q : QUERIES) {
        Result r = cli.run("search", q, "--json", "--mode", mode, "--no-refresh");
        out.add(mode + " " + q + " " + r.exit() + "\n" + r.out());
      }
    }
    return out;
  }

  private void assertRefused(Result r) {
    assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCode.INDEX);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("prism-index search: corrupt index at " + home + " (")
        .endsWith("; run `prism-index index` to repair it\n");
  }

  private void assertRepaired(Result index, List<String> before) {
    assertThat(index.exit()).as(index.toString()).isZero();
    assertThat(index.err()).startsWith("prism-index index: the index at " + home
        + " was damaged (");
    Result verified = cli.run("status", "--verify", "--json");
    assertThat(verified.exit()).as(verified.toString()).isZero();
    assertThat(verified.json().get(0).get("state").asText()).isEqualTo("ready");
    assertThat(answers()).isEqualTo(before);
    // Nothing left to repair: the next run is a quiet incremental one.
    Result again = cli.run("index");
    assertThat(again.exit()).isZero();
    assertThat(again.err()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {".doc", ".fdt", ".tim", ".nvd", ".dvd", ".pgd"})
  void damageStatusFoundIsNeverServedAndIndexRepairsIt(String kind) throws Exception {
    List<String> before = answers();
    SegmentDamage.garble(home, kind);
    Result status = cli.run("status", "--json");
    assertThat(status.exit()).as(status.toString()).isEqualTo(ExitCode.INDEX);
    assertThat(status.json().get(0).get("state").asText()).isEqualTo("corrupt");
    // Known to be damaged (by another process): no mode answers without saying so.
    for (String mode : List.of("lexical", "literal", "semantic", "hybrid")) {
      assertRefused(cli.run("search", "method7Value3", "--json", "--mode", mode));
      assertRefused(cli.run("search", "method7Value3", "--mode", mode, "--no-refresh"));
    }
    assertRepaired(cli.run("index"), before);
  }

  @ParameterizedTest
  @ValueSource(strings = {".doc", ".fdt", ".tim", ".nvd", ".dvd", ".pgd"})
  void indexFindsDamageNoRunHasSeenAndRepairsIt(String kind) throws Exception {
    List<String> before = answers();
    SegmentDamage.garble(home, kind);
    assertRepaired(cli.run("index"), before);
  }
}
