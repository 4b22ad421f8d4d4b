package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/**
 * The one order of ranked chunks, whatever the index's history: score (best first), then path,
 * then first line. Document numbers never decide: they follow the order files were written in,
 * which differs between a fresh index and one updated run by run (issue 41, item 5).
 */
final class TieOrder {

  private TieOrder() {}

  /** A candidate with the place it sorts by. */
  private record Placed(ScoreDoc hit, String path, int start) {}

  static final Comparator<ScoreDoc> BY_SCORE =
      Comparator.comparingDouble((ScoreDoc sd) -> sd.score).reversed();

  /**
   * The first {@code depth} of {@code candidates} in the total order, ranked from 1; the paths
   * and lines are read (stored fields) only for candidates whose score another one shares.
   */
  static List<Ranked> ranked(IndexSearcher searcher, List<ScoreDoc> candidates, int depth)
      throws IOException {
    List<ScoreDoc> byScore = new ArrayList<>(candidates);
    byScore.sort(BY_SCORE);
    List<Placed> placed = new ArrayList<>(byScore.size());
    for (int i = 0; i < byScore.size(); i++) {
      ScoreDoc sd = byScore.get(i);
      boolean tied = i > 0 && byScore.get(i - 1).score == sd.score
          || i + 1 < byScore.size() && byScore.get(i + 1).score == sd.score;
      if (tied) {
        ChunkDoc c = ChunkDoc.read(searcher, sd.doc);
        placed.add(new Placed(sd, c.path(), c.start()));
      } else {
        placed.add(new Placed(sd, "", 0));
      }
    }
    placed.sort(Comparator.comparingDouble((Placed p) -> p.hit().score).reversed()
        .thenComparing(Placed::path).thenComparingInt(Placed::start));
    List<Ranked> out = new ArrayList<>(Math.min(depth, placed.size()));
    for (Placed p : placed.subList(0, Math.min(depth, placed.size()))) {
      out.add(new Ranked(p.hit().doc, out.size() + 1, p.hit().score));
    }
    return out;
  }
}
