package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FileCoherenceTest {

  private static final String SENTENCE = "Returns the number of elements waiting in the queue";

  private static ChunkDoc chunk(String path, int start, int end, int line, String name) {
    return new ChunkDoc(path + "#" + start, path, start, end, new int[] {line}, List.of(name),
        "java", null);
  }

  private static HybridFuser.Fused fused(int doc, double score) {
    return new HybridFuser.Fused(doc, null, null, score);
  }

  private static List<Integer> order(List<HybridFuser.Fused> fused) {
    return fused.stream().map(HybridFuser.Fused::doc).toList();
  }

  private static List<HybridFuser.Fused> apply(List<HybridFuser.Fused> fused, String query,
      Map<Integer, ChunkDoc> chunks) throws IOException {
    // As HYBRID does: coherence, then the first hit of the order without it back in first place.
    List<HybridFuser.Fused> ranked = new ArrayList<>(fused);
    FileCoherence.apply(ranked, query, chunks::get, doc -> null, FileCoherence.WEIGHT,
        FileCoherence.DEPTH);
    FileCoherence.putFirst(ranked, fused.get(0).doc());
    return ranked;
  }

  @Test
  void aFileWhoseDefinitionsRankHighLiftsThemAboveAnIsolatedHitAndTheFirstStays()
      throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        5, chunk("src/Deque.java", 10, 20, 12, "count"),
        1, chunk("src/Stack.java", 10, 20, 12, "depth"),
        2, chunk("src/Queue.java", 10, 20, 12, "size"),
        3, chunk("src/Queue.java", 21, 30, 22, "isEmpty"),
        4, chunk("src/Queue.java", 31, 40, 32, "peek"));
    List<HybridFuser.Fused> fused = List.of(fused(5, 1.0), fused(1, 0.95), fused(2, 0.9),
        fused(3, 0.8), fused(4, 0.7));
    List<HybridFuser.Fused> ranked = apply(fused, SENTENCE, chunks);
    // Queue.java's three definitions among the first five (aggregate 2.4, the largest): x 1.5;
    // Stack.java's isolated hit x (1 + 0.5 x 0.95 / 2.4): size (1.35) and isEmpty (1.2) pass
    // depth (1.14), peek (1.05) does not; the first hit keeps its place (the in-file promotion
    // decides it), and the order within Queue.java stays.
    assertThat(order(ranked)).containsExactly(5, 2, 3, 1, 4);
    assertThat(ranked.get(0).score()).isEqualTo(1.0);
    assertThat(ranked).allSatisfy(f -> assertThat(f.score()).isBetween(0.0, 1.0));
    assertThat(ranked).isSortedAccordingTo(
        (x, y) -> Double.compare(y.score(), x.score()));
  }

  @Test
  void anIdentifierOrANamePhraseKeepsTheFusedOrder() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk("src/Stack.java", 10, 20, 12, "depth"),
        2, chunk("src/Queue.java", 10, 20, 12, "size"),
        3, chunk("src/Queue.java", 21, 30, 22, "isEmpty"));
    List<HybridFuser.Fused> fused = List.of(fused(1, 1.0), fused(2, 0.9), fused(3, 0.8));
    assertThat(order(apply(fused, "depth", chunks))).containsExactly(1, 2, 3);
    assertThat(order(apply(fused, "queue size", chunks))).containsExactly(1, 2, 3);
  }
}
