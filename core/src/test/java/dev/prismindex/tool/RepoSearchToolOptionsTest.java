package dev.prismindex.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.SearchMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RepoSearchToolOptionsTest {

  @Test
  void defaultsAreLiteralOnlyWithDefaultLimitsAndNothingInjected() {
    RepoSearchToolOptions options = RepoSearchToolOptions.defaults();

    assertThat(options.modes()).containsExactly(SearchMode.LITERAL);
    assertThat(options.limits()).isEqualTo(RepositoryLimits.defaults());
    assertThat(options.operations()).isNull();
    assertThat(options.executionPolicy()).isNull();
  }

  @Test
  void nullOrEmptyModesMeanLiteralOnly() {
    assertThat(RepoSearchToolOptions.builder().modes((List<String>) null).build().modes())
        .containsExactly(SearchMode.LITERAL);
    assertThat(RepoSearchToolOptions.builder().modes(List.of()).build().modes())
        .containsExactly(SearchMode.LITERAL);
  }

  @Test
  void modesAlwaysIncludeLiteralAndAreDeduplicatedInCanonicalOrder() {
    RepoSearchToolOptions options = RepoSearchToolOptions.builder()
        .modes(List.of("semantic", "indexed_literal", "semantic"))
        .build();

    assertThat(options.modes())
        .containsExactly(SearchMode.LITERAL, SearchMode.INDEXED_LITERAL, SearchMode.SEMANTIC);
  }

  @Test
  void enumModesAreAccepted() {
    assertThat(RepoSearchToolOptions.builder().modes(SearchMode.INDEXED_LITERAL).build().modes())
        .containsExactly(SearchMode.LITERAL, SearchMode.INDEXED_LITERAL);
  }

  @Test
  void recordConstructorNormalisesModesToo() {
    RepoSearchToolOptions options = new RepoSearchToolOptions(null, null,
        RepositoryLimits.defaults(), List.of(SearchMode.SEMANTIC, SearchMode.SEMANTIC));

    assertThat(options.modes()).containsExactly(SearchMode.LITERAL, SearchMode.SEMANTIC);
  }

  @ParameterizedTest
  @ValueSource(strings = {"regex", "Literal", "", " semantic", "fuzzy"})
  void unknownModeIsRejectedAtConstruction(String mode) {
    RepoSearchToolOptions.Builder builder =
        RepoSearchToolOptions.builder().modes(List.of("literal", mode));

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unsupported search mode in options.modes: " + mode);
  }

  @Test
  void nullModeIsRejectedAtConstruction() {
    List<String> modes = new ArrayList<>(Arrays.asList("literal", null));
    RepoSearchToolOptions.Builder builder = RepoSearchToolOptions.builder().modes(modes);

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unsupported search mode in options.modes: null");
  }

  @Test
  void overridesReplaceTheSameFieldsOfTheRepositoryLimits() {
    RepositoryLimits repository = RepositoryLimits.builder()
        .maxMatches(50).maxContextLines(3).exclude(List.of("target")).maxTimeMs(1_000).build();

    RepoSearchToolOptions options = RepoSearchToolOptions.builder()
        .repository(repository).maxMatches(7).maxContextLines(0).exclude(List.of("build"))
        .build();

    assertThat(options.limits().maxMatches()).isEqualTo(7);
    assertThat(options.limits().maxContextLines()).isZero();
    assertThat(options.limits().exclude()).containsExactly("build");
    assertThat(options.limits().maxTimeMs()).isEqualTo(1_000);
  }

  @Test
  void repositoryLimitsAreKeptWhenNothingIsOverridden() {
    RepositoryLimits repository = RepositoryLimits.builder().maxMatches(50).build();

    assertThat(RepoSearchToolOptions.builder().repository(repository).build().limits())
        .isSameAs(repository);
  }

  @Test
  void invalidMaxMatchesOverrideIsRejectedWithTheLimitMessage() {
    for (Number bad : List.<Number>of(0, -1, 10_001, 2.5, Double.NaN, Double.POSITIVE_INFINITY)) {
      RepoSearchToolOptions.Builder builder = RepoSearchToolOptions.builder().maxMatches(bad);
      assertThatThrownBy(builder::build)
          .as("maxMatches %s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("maxMatches must be a positive safe integer at most 10000");
    }
    assertThat(RepoSearchToolOptions.builder().maxMatches(10_000).build().limits().maxMatches())
        .isEqualTo(10_000);
  }

  @Test
  void invalidMaxContextLinesOverrideIsRejectedWithTheLimitMessage() {
    for (Number bad : List.<Number>of(-1, 21, 0.5, Double.NaN)) {
      RepoSearchToolOptions.Builder builder = RepoSearchToolOptions.builder().maxContextLines(bad);
      assertThatThrownBy(builder::build)
          .as("maxContextLines %s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("maxContextLines must be a non-negative safe integer at most 20");
    }
    assertThat(RepoSearchToolOptions.builder().maxContextLines(20).build().limits()
        .maxContextLines()).isEqualTo(20);
  }

  @Test
  void limitsAreValidatedBeforeModes() {
    RepoSearchToolOptions.Builder builder =
        RepoSearchToolOptions.builder().maxMatches(0).modes(List.of("regex"));

    assertThatThrownBy(builder::build).hasMessageStartingWith("maxMatches");
  }
}
