package dev.prismindex.engine.internal.query;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The learned ranker's features that compare a candidate with the other candidates of the same
 * search ({@link RankFeatures#RELATIVE} onwards), filled in once every candidate's own features
 * are known.
 */
final class RelativeFeatures {

  private RelativeFeatures() {}

  /**
   * The features that compare a candidate with the others (siblings share a file's words, so what
   * tells them apart is how each stands against the rest): its definition prior factor (log) less
   * the best of all candidates and less the best of its file's, and likewise its code share, its
   * cosine (semantic candidates only) and its BM25 over the query's best (lexical ones only)
   * against its file's best. 0 for the best.
   */
  static void fill(List<RankFeatures.Row> rows) {
    int def = RankFeatures.HAND + 3;
    int code = RankFeatures.HAND + 5;
    double bestDef = Double.NEGATIVE_INFINITY;
    Map<String, double[]> best = new HashMap<>(); // path -> best def, code, cosine, bm25
    for (RankFeatures.Row r : rows) {
      double[] x = r.features();
      bestDef = Math.max(bestDef, x[def]);
      double[] b = best.computeIfAbsent(r.chunk().path(), k -> new double[] {
          Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY,
          Double.NEGATIVE_INFINITY});
      b[0] = Math.max(b[0], x[def]);
      b[1] = Math.max(b[1], x[code]);
      if (x[7] > 0) {
        b[2] = Math.max(b[2], x[9]);
      }
      if (x[0] > 0) {
        b[3] = Math.max(b[3], x[2]);
      }
    }
    for (RankFeatures.Row r : rows) {
      double[] x = r.features();
      double[] b = best.get(r.chunk().path());
      x[RankFeatures.RELATIVE] = x[def] - bestDef;
      x[RankFeatures.RELATIVE + 1] = x[def] - b[0];
      x[RankFeatures.RELATIVE + 2] = x[code] - b[1];
      x[RankFeatures.RELATIVE + 3] = x[7] > 0 ? x[9] - b[2] : -1;
      x[RankFeatures.RELATIVE + 4] = x[0] > 0 ? x[2] - b[3] : -1;
    }
  }}
