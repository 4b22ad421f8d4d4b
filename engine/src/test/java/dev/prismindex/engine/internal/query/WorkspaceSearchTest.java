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
        Map.of("split", 0.0, "sure", 1.0), Map.of());
    assertThat(order).containsExactly(sure, split, far);
    // Agreeing alike, the pooled order stays.
    assertThat(WorkspaceSearch.places(List.of(split, sure, far),
        Map.of("split", 0.4, "sure", 0.4), Map.of())).containsExactly(split, sure, far);
  }

  /**
   * Each repository's extra weight (its own first hit's definition factor) multiplies its places'
   * scores with the agreement's.
   */
  @Test
  void aRepositoryWhoseFirstHitTheSentenceDescribesTakesItsPlacesFirst() {
    Hit plain = hit("plain", 0.50, 1, 1);
    Hit named = hit("named", 0.40, 1, 1);
    Map<String, Double> agree = Map.of("plain", 0.0, "named", 0.0);
    assertThat(WorkspaceSearch.places(List.of(plain, named), agree,
        Map.of("plain", 1.0, "named", 1.5))).containsExactly(named, plain);
    assertThat(WorkspaceSearch.places(List.of(plain, named), agree,
        Map.of("plain", 1.0, "named", 1.2))).containsExactly(plain, named);
  }

  private static Hit at(String repo, String path, double score) {
    return new Hit(path, 1, 2, 0, "x", score, SearchMode.HYBRID, "java", null, null, null, null)
        .withRepo(repo);
  }

  /** {@code h} as its repository's own search gives it (no repository named). */
  private static Hit mine(Hit h) {
    return new Hit(h.path(), 1, 2, 0, "x", h.score(), SearchMode.HYBRID, "java", null, null, null,
        null);
  }

  private static List<String> keys(List<Hit> hits) {
    return hits.stream().map(h -> h.repo() + ":" + h.path() + "@" + h.score()).toList();
  }

  /**
   * A repository whose own search yields fewer hits than the places it holds fills the rest with
   * its pooled hits not yet given, in pooled order: no place is lost and no hit given twice, even
   * when its own hits were pooled hits of places it filled before.
   */
  @Test
  void aRepositoryShortOfOwnHitsFillsItsPlacesWithItsPooledOnes() {
    Hit a1 = at("a", "A1.java", 0.9);
    Hit b1 = at("b", "B1.java", 0.8);
    Hit a2 = at("a", "A2.java", 0.7);
    Hit a3 = at("a", "A3.java", 0.6);
    Hit b2 = at("b", "B2.java", 0.5);
    List<Hit> pooled = List.of(a1, b1, a2, a3, b2);
    // a's own search: only the pooled a3 (then nothing); b's: an own hit the pool lacks.
    Hit b9 = at("b", "B9.java", 0.99);
    List<Hit> out = WorkspaceSearch.fill(pooled, pooled, Map.of(
        "a", List.of(mine(a3)).iterator(),
        "b", List.of(mine(b9)).iterator()));
    assertThat(keys(out)).containsExactly("a:A3.java@0.9", "b:B9.java@0.8", "a:A1.java@0.7",
        "a:A2.java@0.6", "b:B1.java@0.5");
    // A repository without any own hit keeps its pooled hits in their order.
    assertThat(keys(WorkspaceSearch.fill(pooled, pooled, Map.of())))
        .containsExactly("a:A1.java@0.9", "b:B1.java@0.8", "a:A2.java@0.7", "a:A3.java@0.6",
            "b:B2.java@0.5");
    // Places in another order than the pooled scores: each score stays with its position.
    List<Hit> order = List.of(b1, b2, a1, a2, a3);
    assertThat(keys(WorkspaceSearch.fill(pooled, order, Map.of(
        "a", List.of(mine(a2), mine(a1)).iterator()))))
        .containsExactly("b:B1.java@0.9", "b:B2.java@0.8", "a:A2.java@0.7", "a:A1.java@0.6",
            "a:A3.java@0.5");
  }
}
