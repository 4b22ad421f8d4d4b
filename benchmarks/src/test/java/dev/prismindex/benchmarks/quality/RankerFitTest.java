package dev.prismindex.benchmarks.quality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.testing.EngineProbes;
import dev.prismindex.engine.testing.EngineProbes.RankerModel;
import dev.prismindex.engine.testing.EngineProbes.RankerTree;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The held-out table's orders: the plain fusion's, the hand-set stack's, a model's. */
class RankerFitTest {

  private static double[] row(double lexRrf, double semRrf, double handRrf) {
    List<String> names = EngineProbes.rankerFeatures();
    double[] x = new double[names.size()];
    x[names.indexOf("lex_rrf")] = lexRrf;
    x[names.indexOf("sem_rrf")] = semRrf;
    x[names.indexOf("hand_rrf")] = handRrf;
    return x;
  }

  @Test
  void theHandStacksOrderIsItsPlaceFeature() {
    // The plain fusion ranks the sibling first; the hand stack (the definition prior, the in-file
    // promotion) the target; a second piece of the sibling's definition counts once.
    RankerFit.Query q = new RankerFit.Query("t", "go", "nl", new double[][] {
        row(1, 1, 11.0 / 12), row(1, 0.9, 11.0 / 13), row(0.5, 0.5, 1)},
        new boolean[] {false, false, true}, new String[] {"a.go#3:sibling", "a.go#3:sibling",
            "a.go#9:target"});
    assertThat(RankerFit.evaluate(List.of(q), "nl", null)).containsExactly(0.5, 1, 1);
    assertThat(RankerFit.evaluate(List.of(q), "nl", null, true)).containsExactly(1, 1, 1);
    assertThat(RankerFit.evaluate(List.of(q), "nav-phrase", null, true)).containsExactly(0, 0, 0);
    double[] w = new double[EngineProbes.rankerFeatures().size()];
    w[EngineProbes.rankerFeatures().indexOf("lex_rrf")] = 1;
    assertThat(RankerFit.evaluate(List.of(q), "nl", linear(w))).containsExactly(0.5, 1, 1);
  }

  @Test
  void aModelThatWinsPooledCanLoseATree() {
    // Tree "a": the hand stack ranks the target first, the model (lex_rrf) second. Tree "b": the
    // hand stack second, the model first, on two queries: pooled the model wins (0.833 vs 0.667),
    // and tree "a" is reported below the hand stack by 0.5.
    RankerFit.Query a = new RankerFit.Query("a", "go", "nl", new double[][] {
        row(1, 0, 11.0 / 12), row(0.5, 0, 1)}, new boolean[] {false, true},
        new String[] {"a.go#1:x", "a.go#5:y"});
    RankerFit.Query b = new RankerFit.Query("b", "go", "nl", new double[][] {
        row(1, 0, 11.0 / 12), row(0.5, 0, 1)}, new boolean[] {true, false},
        new String[] {"b.go#1:x", "b.go#5:y"});
    double[] w = new double[EngineProbes.rankerFeatures().size()];
    w[EngineProbes.rankerFeatures().indexOf("lex_rrf")] = 1;
    List<RankerFit.Query> qs = List.of(a, b, b);
    assertThat(RankerFit.evaluate(qs, "nl", linear(w))[0])
        .isGreaterThan(RankerFit.evaluate(qs, "nl", null, true)[0]);
    assertThat(RankerFit.treesBelowHand(qs, "nl", linear(w))).containsExactly(Map.entry("a", -0.5));
    assertThat(RankerFit.treesBelowHand(qs, "nav-phrase", linear(w))).isEmpty();
  }

  @Test
  void aFitAroundTheHandStacksPlaceKeepsItsOrderWhereNothingSaysOtherwise() {
    // The hand stack is right on both queries and no other feature tells the candidates apart:
    // fitted around 10 x hand_rrf, the weights hold that offset (the engine scores them as any
    // weights) and keep the hand stack's order; fitted from nothing with a large L2 the weight
    // stays near zero (the offset 0 is the plain fit).
    List<String> names = EngineProbes.rankerFeatures();
    int hand = names.indexOf("hand_rrf");
    RankerFit.Query q = new RankerFit.Query("t", "go", "nl", new double[][] {
        row(1, 1, 11.0 / 12), row(1, 1, 1)}, new boolean[] {false, true},
        new String[] {"a.go#1:x", "a.go#5:y"});
    double[] around = RankerFit.fit(List.of(q, q), names.size(), 50, 10, hand, 10);
    assertThat(around[hand]).isGreaterThan(9);
    assertThat(RankerFit.evaluate(List.of(q), "nl", linear(around))).containsExactly(1, 1, 1);
    double[] plain = RankerFit.fit(List.of(q, q), names.size(), 50, 10, hand, 0);
    assertThat(plain[hand]).isLessThan(1);
  }

  @Test
  void boostedTreesLearnWhatNoWeightCan() {
    // The target is the candidate whose lexical place is in the middle (0.5), never the best or
    // the worst: no weight on lex_rrf ranks it first on every query, a tree of depth 2 does.
    List<String> names = EngineProbes.rankerFeatures();
    int hand = names.indexOf("hand_rrf");
    List<RankerFit.Query> qs = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      double[][] x = {row(1, 0, 0), row(0.5, 0, 0), row(0.25, 0, 0)};
      qs.add(new RankerFit.Query("t" + i, "go", "nl", x, new boolean[] {false, true, false},
          new String[] {"a.go#1:x", "a.go#5:y", "a.go#9:z"}));
    }
    double[] w = RankerFit.fit(qs, names.size(), 100, 0.001, hand, 0);
    assertThat(RankerFit.evaluate(qs, "nl", linear(w))[0]).isLessThan(1);
    List<RankerTree> trees = RankerFit.boost(qs, w,
        new RankerFit.Boost(20, 2, 0.3, 1, 0.01));
    RankerModel boosted = EngineProbes.rankerModel("t", 0, w, trees);
    assertThat(RankerFit.evaluate(qs, "nl", boosted)).containsExactly(1, 1, 6);
    // The same queries give the same trees.
    assertThat(EngineProbes.rankerModel("t", 0, w,
        RankerFit.boost(qs, w, new RankerFit.Boost(20, 2, 0.3, 1, 0.01))).format(""))
        .isEqualTo(boosted.format(""));
  }

  private static RankerModel linear(double[] w) {
    return EngineProbes.rankerModel("t", 0, w, List.of());
  }
}
