package dev.prismindex.engine.internal.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.Fusion;
import dev.prismindex.engine.spi.Candidate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rank fusion of cut rankings. */
class HybridFuserTest {

  /** Docs {@code first..first+n-1} ranked in that order. */
  private static List<Candidate> ranking(int first, int n) {
    List<Candidate> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new Candidate(first + i, i + 1, 1.0 / (i + 1)));
    }
    return out;
  }

  @Test
  void aChunkMissingFromACutRankingCountsAsRankedJustBelowTheCut() {
    // Lexical ranks docs 0..49 (cut at 50); semantic ranks doc 100 first, then docs 20..68.
    List<Candidate> lexical = ranking(0, 50);
    List<Candidate> semantic = new ArrayList<>();
    semantic.add(new Candidate(100, 1, 0.9));
    for (int i = 0; i < 49; i++) {
      semantic.add(new Candidate(20 + i, i + 2, 0.5));
    }
    Fusion rrf = new Fusion(60, 1, 1); // the customary k, where the effect is the largest
    List<HybridFuser.Fused> plain = HybridFuser.fuse(lexical, semantic, rrf);
    List<HybridFuser.Fused> cut = HybridFuser.fuse(lexical, semantic, rrf, 50);
    // Plain RRF: doc 100 (semantic rank 1 alone) falls below every doc both engines list.
    assertThat(position(plain, 100)).isGreaterThan(25);
    // Imputed: it scores 1/61 + 1/111 and beats doc 30 (ranked 31st by lexical, 12th by
    // semantic).
    assertThat(position(cut, 100)).isLessThan(position(cut, 30));
    HybridFuser.Fused hundred = cut.get(position(cut, 100));
    assertThat(hundred.lexical()).isNull();
    assertThat(hundred.score()).isEqualTo(rrf.normalised(51, 1));
    // Both orders stay sorted by score, and scores stay in [0, 1].
    for (List<HybridFuser.Fused> f : List.of(plain, cut)) {
      for (int i = 1; i < f.size(); i++) {
        assertThat(f.get(i).score()).isLessThanOrEqualTo(f.get(i - 1).score());
        assertThat(f.get(i).score()).isBetween(0.0, 1.0);
      }
    }
  }

  @Test
  void aShortRankingIsNotCut() {
    // Lexical found only two docs: a doc it did not list does not match, so it counts 0 there.
    List<HybridFuser.Fused> f = HybridFuser.fuse(ranking(0, 2), ranking(10, 50), Fusion.rrf(),
        50);
    assertThat(f.get(position(f, 10)).score()).isEqualTo(Fusion.rrf().normalised(0, 1));
    // A doc missing from the cut semantic ranking gets the imputed rank there.
    assertThat(f.get(position(f, 0)).score()).isEqualTo(Fusion.rrf().normalised(1, 51));
  }

  private static int position(List<HybridFuser.Fused> fused, int doc) {
    for (int i = 0; i < fused.size(); i++) {
      if (fused.get(i).doc() == doc) {
        return i;
      }
    }
    throw new AssertionError("doc " + doc + " not fused");
  }
}
