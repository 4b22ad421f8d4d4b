package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two runs' details compared query by query: the figures, the interval, what is left out. */
class QualityComparisonTest {

  private static final String HEADER = "corpus\tlanguage\tset\tquery\tanswer\trank lexical"
      + "\trank semantic\trank hybrid\ttop1 lexical\ttop1 semantic\ttop1 hybrid\tgrep file rank";

  @TempDir Path dir;

  private Path run(String name, String corpus, String... rows) throws IOException {
    Path work = Files.createDirectories(dir.resolve(name));
    List<String> lines = new ArrayList<>(List.of(HEADER));
    lines.addAll(List.of(rows));
    Files.write(work.resolve(corpus + "-details.tsv"), lines);
    return work;
  }

  private static String nl(String language, String query, String hybridRank) {
    return "c\t" + language + "\tnl\t" + query + "\ta.x:1-9\t1\t1\t" + hybridRank
        + "\ta.x:1\ta.x:1\ta.x:1\t1";
  }

  @Test
  void comparesTheQueriesBothRunsAskedPerLanguageAndPooled() throws IOException {
    Path before = run("before", "c", nl("go", "q1", "1"), nl("go", "q2", "2"),
        nl("rust", "q3", "0"), nl("rust", "gone", "1"),
        "c\tgo\tidentifier\tgetX\ta.x:1-9\t1\t1\t1\ta.x:1\ta.x:1\ta.x:1\t1");
    Path after = run("after", "c", nl("go", "q1", "2"), nl("go", "q2", "1"),
        nl("rust", "q3", "11"), nl("rust", "new", "1"),
        "c\tgo\tidentifier\tgetX\ta.x:1-9\t1\t1\t4\ta.x:1\ta.x:1\ta.x:1\t1");

    List<QualityComparison.Row> rows = QualityComparison.compare(
        QualityComparison.read(before), QualityComparison.read(after));

    assertThat(rows).extracting(QualityComparison.Row::language)
        .containsExactly("go", "rust", "pooled");
    QualityComparison.Row go = rows.get(0);
    assertThat(go.queries()).isEqualTo(2);
    assertThat(go.before()).isCloseTo(0.75, within(1e-12));
    assertThat(go.after()).isCloseTo(0.75, within(1e-12));
    assertThat(go.up()).isEqualTo(1);
    assertThat(go.down()).isEqualTo(1);
    // A rank beyond ten counts as not found, like 0; a query only one run asked is left out.
    QualityComparison.Row rust = rows.get(1);
    assertThat(rust.queries()).isEqualTo(1);
    assertThat(rust.difference()).isZero();
    assertThat(rows.get(2).queries()).isEqualTo(3);
  }

  @Test
  void theIntervalHoldsTheDifferenceAndExcludesZeroOnlyForAConsistentMove() throws IOException {
    List<String> b = new ArrayList<>();
    List<String> a = new ArrayList<>();
    List<String> mixedB = new ArrayList<>();
    List<String> mixedA = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      b.add(nl("java", "q" + i, "2"));
      a.add(nl("java", "q" + i, i % 3 == 0 ? "2" : "1"));
      mixedB.add(nl("java", "q" + i, i % 2 == 0 ? "1" : "2"));
      mixedA.add(nl("java", "q" + i, i % 2 == 0 ? "2" : "1"));
    }
    QualityComparison.Row up = QualityComparison.compare(
        QualityComparison.read(run("b", "c", b.toArray(String[]::new))),
        QualityComparison.read(run("a", "c", a.toArray(String[]::new)))).get(0);
    assertThat(up.difference()).isCloseTo(40 * 0.5 / 60, within(1e-12));
    assertThat(up.low()).isPositive().isLessThanOrEqualTo(up.difference());
    assertThat(up.high()).isGreaterThanOrEqualTo(up.difference());

    QualityComparison.Row mixed = QualityComparison.compare(
        QualityComparison.read(run("mb", "c", mixedB.toArray(String[]::new))),
        QualityComparison.read(run("ma", "c", mixedA.toArray(String[]::new)))).get(0);
    assertThat(mixed.difference()).isZero();
    assertThat(mixed.low()).isNegative();
    assertThat(mixed.high()).isPositive();
    assertThat(QualityComparison.table(List.of(up, mixed)))
        .contains("| java | 60 | 0.5000 | 0.8333 | +0.3333 |")
        .contains("| 40 / 0 |")
        .contains("| 30 / 30 |");
  }

  @Test
  void theSameRunsGiveTheSameTable() throws IOException {
    Path before = run("b", "c", nl("go", "q1", "1"), nl("go", "q2", "3"), nl("go", "q3", "0"));
    Path after = run("a", "c", nl("go", "q1", "2"), nl("go", "q2", "1"), nl("go", "q3", "1"));
    String once = QualityComparison.table(QualityComparison.compare(
        QualityComparison.read(before), QualityComparison.read(after)));
    String twice = QualityComparison.table(QualityComparison.compare(
        QualityComparison.read(before), QualityComparison.read(after)));
    assertThat(once).isEqualTo(twice);
  }

  @Test
  void aDirectoryWithoutDetailsAColumnMissingOrRunsSharingNoQueryAreClearErrors() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(() -> QualityComparison.read(empty))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no *-details.tsv");
    assertThatThrownBy(() -> QualityComparison.read(dir.resolve("missing")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a directory");
    Path noRanks = Files.createDirectories(dir.resolve("noRanks"));
    Files.writeString(noRanks.resolve("c-details.tsv"), "corpus\tlanguage\tset\tquery\tanswer\n");
    assertThatThrownBy(() -> QualityComparison.read(noRanks))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank hybrid");
    Path one = run("one", "c", nl("go", "q1", "1"));
    Path other = run("other", "c", nl("go", "q2", "1"));
    assertThatThrownBy(() -> QualityComparison.compare(QualityComparison.read(one),
        QualityComparison.read(other)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share no");
  }
}
