package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.Candidate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class EngineReserveTest {

  /** Each engine's ranking as its own mode orders it: lexical 1st doc 16, semantic 1st doc 15. */
  private static final List<Integer> LEXICAL = List.of(16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  private static final List<Integer> SEMANTIC = List.of(15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);

  private static HybridFuser.Fused fused(int doc, @Nullable Integer lexical,
      @Nullable Integer semantic, double score) {
    return new HybridFuser.Fused(doc, lexical == null ? null : new Candidate(doc, lexical, 1),
        semantic == null ? null : new Candidate(doc, semantic, 1), score);
  }

  /**
   * Twenty fused chunks, each its own definition except 3 and 4 (one definition), both engines
   * ranking the first ten 2nd to 11th; the lexical 1st (doc 16) and the semantic 1st (doc 15)
   * fused below them.
   */
  private static List<HybridFuser.Fused> list() {
    List<HybridFuser.Fused> out = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Integer lexical = i < 10 ? Integer.valueOf(i + 2) : i == 16 ? Integer.valueOf(1) : null;
      Integer semantic = i < 10 ? Integer.valueOf(i + 2) : i == 15 ? Integer.valueOf(1) : null;
      out.add(fused(i, lexical, semantic, 1.0 - i * 0.04));
    }
    return out;
  }

  private static String definition(int doc) {
    return doc == 4 ? "d3" : "d" + doc;
  }

  private static List<Integer> order(List<HybridFuser.Fused> fused) {
    return fused.stream().map(HybridFuser.Fused::doc).toList();
  }

  @Test
  void eachEnginesFirstDefinitionTakesTheLastPlacesOfTheFirstTen() throws IOException {
    List<HybridFuser.Fused> fused = list();
    EngineReserve.apply(fused, 1, EngineReserveTest::definition, LEXICAL, SEMANTIC);
    // Definitions d0..d9 and d10 held the first ten (3 and 4 are one): d0..d7 stay, then the
    // lexical 1st and the semantic 1st, then the rest in fused order.
    assertThat(order(fused)).startsWith(0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 15, 9, 10, 11);
    for (int i = 1; i < fused.size(); i++) {
      assertThat(fused.get(i).score()).isLessThanOrEqualTo(fused.get(i - 1).score());
    }
  }

  @Test
  void nothingMovesWhenTheEnginesFirstAreOnThePageOrTheReserveIsOff() throws IOException {
    List<HybridFuser.Fused> fused = list();
    List<Integer> before = order(fused);
    EngineReserve.apply(fused, 0, EngineReserveTest::definition, LEXICAL, SEMANTIC);
    assertThat(order(fused)).isEqualTo(before);

    List<HybridFuser.Fused> short_ = new ArrayList<>(list().subList(0, 9));
    short_.add(fused(16, 1, null, 0.1));
    short_.add(fused(15, null, 1, 0.05));
    // 11 chunks, 10 definitions: all of them on the page.
    EngineReserve.apply(short_, 2, EngineReserveTest::definition, LEXICAL, SEMANTIC);
    assertThat(order(short_)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 15);
  }
}
