package dev.prismindex.engine.internal.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;

/**
 * The one order of ranked chunks, whatever the index's history: score (best first), then path,
 * then first line. Document numbers never decide: they follow the order files were written in,
 * which differs between a fresh index and one updated run by run (issue 41, item 5).
 */
final class TieOrder {

  private TieOrder() {}

  /** A candidate with the place it sorts by. */
  private record Placed(ScoreDoc hit, String path, int start) {}

  /**
   * The top {@code depth} documents {@code query} matches in the total order. When the score at
   * the cut is shared with documents beyond it, every document with that score competes for the
   * places left.
   */
  static ScoreDoc[] top(IndexSearcher searcher, Query query, int depth) throws IOException {
    ScoreDoc[] top = searcher.search(query, depth + 1).scoreDocs;
    List<ScoreDoc> candidates;
    if (top.length > depth && top[depth].score == top[depth - 1].score) {
      candidates = scoringAtLeast(searcher, query, top[depth - 1].score);
    } else {
      candidates = List.of(top).subList(0, Math.min(depth, top.length));
    }
    return sorted(searcher, candidates, depth);
  }

  /**
   * The first {@code depth} of {@code candidates} in the total order; the paths and lines are read
   * (stored fields) only for candidates whose score another one shares.
   */
  private static ScoreDoc[] sorted(IndexSearcher searcher, List<ScoreDoc> candidates, int depth)
      throws IOException {
    List<ScoreDoc> byScore = new ArrayList<>(candidates);
    byScore.sort(Comparator.comparingDouble((ScoreDoc sd) -> sd.score).reversed());
    List<Placed> placed = new ArrayList<>(byScore.size());
    for (int i = 0; i < byScore.size(); i++) {
      ScoreDoc sd = byScore.get(i);
      boolean tied = i > 0 && byScore.get(i - 1).score == sd.score
          || i + 1 < byScore.size() && byScore.get(i + 1).score == sd.score;
      if (tied) {
        var c = ChunkRecord.read(searcher, sd.doc);
        placed.add(new Placed(sd, c.path(), c.start()));
      } else {
        placed.add(new Placed(sd, "", 0));
      }
    }
    placed.sort(Comparator.comparingDouble((Placed p) -> p.hit().score).reversed()
        .thenComparing(Placed::path).thenComparingInt(Placed::start));
    int n = Math.min(depth, placed.size());
    ScoreDoc[] out = new ScoreDoc[n];
    for (int i = 0; i < n; i++) {
      out[i] = placed.get(i).hit();
    }
    return out;
  }

  /** Every document {@code query} scores {@code min} or more, in no order. */
  private static List<ScoreDoc> scoringAtLeast(IndexSearcher searcher, Query query, float min)
      throws IOException {
    List<ScoreDoc> out = new ArrayList<>();
    searcher.search(query, new SimpleCollector() {
      private Scorable scorer;
      private int base;

      @Override
      protected void doSetNextReader(LeafReaderContext context) {
        base = context.docBase;
      }

      @Override
      public void setScorer(Scorable s) throws IOException {
        scorer = s;
        s.setMinCompetitiveScore(min);
      }

      @Override
      public void collect(int doc) throws IOException {
        float score = scorer.score();
        if (score >= min) {
          out.add(new ScoreDoc(base + doc, score));
        }
      }

      @Override
      public ScoreMode scoreMode() {
        return ScoreMode.TOP_SCORES;
      }
    });
    return out;
  }
}
