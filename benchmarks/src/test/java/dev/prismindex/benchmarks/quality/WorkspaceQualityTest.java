package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.benchmarks.quality.Definition.Kind;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.SearchMode;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** How the workspace run names what ranks above a target it ranks lower. */
class WorkspaceQualityTest {

  private static final Definition TARGET = new Definition("toolz/itertoolz.py", Language.PYTHON,
      Kind.FUNCTION, "take", 10, 9, 12, true, null, List.of());

  private static Hit hit(String repo, String language, @Nullable String symbol) {
    return new Hit("a/b", 3, 4, 0, "x", 0.5, SearchMode.HYBRID, language, symbol, null, null,
        null).withRepo(repo);
  }

  @Test
  void theFirstKindThatAppliesToTheHitsAboveNamesTheLoss() {
    Hit own = hit("python", "python", "drop");
    Hit sibling = hit("more-itertools", "python", "more_itertools.Take");
    Hit sameLanguage = hit("more-itertools", "python", "islice_extended");
    Hit java = hit("jdk", "java", "Vector.firstElement");
    assertThat(WorkspaceQuality.kind(List.of(java, sameLanguage, sibling), "python", TARGET))
        .isZero();
    assertThat(WorkspaceQuality.kind(List.of(java, sameLanguage), "python", TARGET)).isEqualTo(1);
    assertThat(WorkspaceQuality.kind(List.of(own, java), "python", TARGET)).isEqualTo(2);
    assertThat(WorkspaceQuality.kind(List.of(own), "python", TARGET)).isEqualTo(3);
    // The target repository's own definition of the same name is not another repository's.
    assertThat(WorkspaceQuality.kind(List.of(hit("python", "python", "take")), "python", TARGET))
        .isEqualTo(3);
    assertThat(WorkspaceQuality.kind(List.of(hit("jdk", "java", null)), "python", TARGET))
        .isEqualTo(2);
  }

  @Test
  void namesCompareWithoutCaseUnderscoresOrQualifier() {
    assertThat(WorkspaceQuality.sameName("Scanner.nextLine", "next_line")).isTrue();
    assertThat(WorkspaceQuality.sameName("itertools::Itertools::interleave", "interleave"))
        .isTrue();
    assertThat(WorkspaceQuality.sameName("nextLine", "next")).isFalse();
  }
}
