package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.SearchMode;
import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LearnedMerge}: its candidates' features, its order of places and its weights. */
class LearnedMergeTest {

  private static Hit hit(String path, double score, int lexical, double bm25, int semantic,
      double cosine) {
    return new Hit(path, 1, 2, 0, "x", score, SearchMode.HYBRID, "java", null,
        lexical == 0 ? null : new EngineScore(lexical, bm25),
        semantic == 0 ? null : new EngineScore(semantic, cosine), null);
  }

  private static LearnedMerge.Repository repo(String name, List<Integer> places, Hit... own) {
    return new LearnedMerge.Repository(name, List.of(own), 0.4, 1.0, 1.0, 100, places, 0);
  }

  private static double feature(LearnedMerge.Candidate c, String name) {
    return c.features()[LearnedMerge.FEATURES.indexOf(name)];
  }

  @Test
  void aCandidatesFeaturesPlaceItInItsRepositoryAndTheWorkspace() {
    List<LearnedMerge.Candidate> cs = LearnedMerge.candidates(List.of(
        repo("a", List.of(0, 2), hit("A1", 0.2, 1, 10, 2, 0.7), hit("A2", 0.1, 2, 5, 0, 0)),
        repo("b", List.of(1), hit("B1", 0.1, 0, 0, 1, 0.8))), 3);
    assertThat(cs).extracting(LearnedMerge.Candidate::repo).containsExactly("a", "a", "b");
    LearnedMerge.Candidate a2 = cs.get(1);
    assertThat(a2.ownRank()).isEqualTo(2);
    assertThat(feature(a2, "inv_rank")).isEqualTo(0.5);
    assertThat(feature(a2, "score_ratio")).isEqualTo(0.5);
    assertThat(feature(a2, "lexical_ratio")).isEqualTo(0.5);
    assertThat(feature(a2, "semantic_missing")).isEqualTo(1.0);
    assertThat(feature(a2, "own_place_inv")).isEqualTo(1.0 / 3);
    assertThat(feature(cs.get(0), "cosine_gap")).isCloseTo(-0.1, org.assertj.core.data.Offset
        .offset(1e-9));
    assertThat(feature(cs.get(2), "cosine_gap")).isZero();
    assertThat(feature(cs.get(2), "own_place_inv")).isEqualTo(0.5);
    assertThat(feature(cs.get(2), "place_share")).isEqualTo(1.0 / 3);
  }

  @Test
  void placesGoByScoreAndEachRepositoryKeepsItsOwnOrder() {
    // The model prefers a high cosine: b's second hit outscores its first and a's first, but
    // b's places still take b's hits in b's own order.
    List<LearnedMerge.Candidate> cs = LearnedMerge.candidates(List.of(
        repo("a", List.of(0), hit("A1", 0.3, 1, 10, 1, 0.6)),
        repo("b", List.of(1), hit("B1", 0.2, 1, 8, 2, 0.5), hit("B2", 0.1, 2, 4, 1, 0.9))), 3);
    double[] w = new double[LearnedMerge.FEATURES.size()];
    w[LearnedMerge.FEATURES.indexOf("cosine")] = 1;
    assertThat(LearnedMerge.order(cs, w, 3)).extracting(Hit::path, Hit::repo)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("B1", "b"),
            org.assertj.core.groups.Tuple.tuple("A1", "a"),
            org.assertj.core.groups.Tuple.tuple("B2", "b"));
    assertThat(LearnedMerge.order(cs, w, 2)).extracting(Hit::path).containsExactly("B1", "A1");
  }

  @Test
  void theWeightsNameEveryFeatureOnce() throws Exception {
    assertThat(LearnedMerge.weights()).hasSize(LearnedMerge.FEATURES.size());
    assertThatThrownBy(() -> LearnedMerge.parse(new BufferedReader(new StringReader(
        "inv_rank\t1\n")))).hasMessageContaining("no merge weight for log_rank");
    assertThatThrownBy(() -> LearnedMerge.parse(new BufferedReader(new StringReader(
        "inv_rank\t1\ninv_rank\t2\n")))).hasMessageContaining("bad merge weight line");
  }
}
