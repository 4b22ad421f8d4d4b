package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.SearchMode;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkspaceSearch}'s order of places in a hybrid answer: a repository whose engines agree
 * on its first hits takes its places before a slightly better-scored one whose engines do not.
 */
class WorkspaceSearchTest {

  private static Hit hit(String repo, double score, @Nullable Integer lexical,
      @Nullable Integer semantic) {
    return new Hit("src/A.java", 1, 2, 0, "x", score, SearchMode.HYBRID, "java", null,
        lexical == null ? null : new EngineScore(lexical, 1.0),
        semantic == null ? null : new EngineScore(semantic, 0.5), null).withRepo(repo);
  }

  @Test
  void agreementIsTheShareOfTheTopPlacesBothEnginesGiveTheSameHits() {
    assertThat(WorkspaceSearch.agreement(List.of(hit("a", 0.9, 1, 1), hit("a", 0.8, 2, 3),
        hit("a", 0.7, 6, 2), hit("a", 0.6, null, 4), hit("a", 0.5, 5, 5)))).isEqualTo(0.6);
    assertThat(WorkspaceSearch.agreement(List.of(hit("a", 0.9, 1, null), hit("a", 0.8, null, 1))))
        .isZero();
    assertThat(WorkspaceSearch.agreement(List.of())).isZero();
  }

  @Test
  void aRepositoryWhoseEnginesAgreeTakesItsPlacesFirst() {
    Hit split = hit("split", 0.50, 1, null);
    Hit sure = hit("sure", 0.45, 1, 1);
    Hit far = hit("split", 0.20, null, 2);
    List<Hit> order = WorkspaceSearch.places(List.of(split, sure, far),
        Map.of("split", 0.0, "sure", 1.0));
    assertThat(order).containsExactly(sure, split, far);
    // Agreeing alike, the pooled order stays.
    assertThat(WorkspaceSearch.places(List.of(split, sure, far),
        Map.of("split", 0.4, "sure", 0.4))).containsExactly(split, sure, far);
  }
}
