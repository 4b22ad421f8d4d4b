package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.spi.StoreFields;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;

/**
 * Which repository of a workspace a query was written for, from its words alone: each
 * repository's weight in (0, 1] multiplies its candidates' scores before the workspace merges
 * them ({@link WorkspaceReader}). A repository's evidence is how typical the query's terms are
 * of its chunks: for each term, the share of the repository's chunks holding it ({@code body}),
 * smoothed towards the share over the whole workspace, divided by that workspace share; the
 * repository's score {@code s} is the mean log of those ratios over the query's terms that the
 * workspace holds, and its weight {@code exp(s - best s)}: the repository the query reads most
 * like keeps its scores, one whose chunks use the query's words less often is damped (a sharper or
 * a softer prior, less smoothing, idf-weighted terms and the weight on one signal only each ranked
 * the quality benchmark's workspace no better: docs/benchmarks.md, section 11).
 * Shares, not counts: a repository's size alone neither helps nor hurts it (a small repository
 * whose chunks use the words as often as a large one's weighs the same). A query none of whose
 * terms the workspace holds, or a workspace of one repository, weighs every repository 1.
 */
final class RepositoryPrior {

  /** The weight of the workspace's share in a repository's smoothed share of a term. */
  static final double SMOOTHING = 0.5;

  private RepositoryPrior() {}

  /**
   * The weight of each index of {@code readers} (in their order) for a query of {@code terms}
   * (the lexical engine's analyzed terms).
   */
  static double[] weights(List<IndexReader> readers, Collection<String> terms)
      throws IOException {
    int n = readers.size();
    double[] w = new double[n];
    java.util.Arrays.fill(w, 1.0);
    if (n < 2 || terms.isEmpty()) {
      return w;
    }
    long[] chunks = new long[n];
    long all = 0;
    for (int i = 0; i < n; i++) {
      chunks[i] = readers.get(i).getDocCount(StoreFields.BODY);
      all += chunks[i];
    }
    if (all == 0) {
      return w;
    }
    double[] score = new double[n];
    int counted = 0;
    long[] df = new long[n];
    for (String t : terms) {
      Term term = new Term(StoreFields.BODY, t);
      long total = 0;
      for (int i = 0; i < n; i++) {
        df[i] = readers.get(i).docFreq(term);
        total += df[i];
      }
      if (total == 0) {
        continue;
      }
      counted++;
      double shared = (double) total / all;
      for (int i = 0; i < n; i++) {
        double own = chunks[i] == 0 ? shared : (double) df[i] / chunks[i];
        score[i] += Math.log(((1 - SMOOTHING) * own + SMOOTHING * shared) / shared);
      }
    }
    if (counted == 0) {
      return w;
    }
    double best = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      score[i] /= counted;
      best = Math.max(best, score[i]);
    }
    for (int i = 0; i < n; i++) {
      w[i] = Math.exp(score[i] - best);
    }
    return w;
  }
}
