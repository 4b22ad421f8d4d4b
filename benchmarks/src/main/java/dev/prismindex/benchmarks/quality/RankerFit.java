package dev.prismindex.benchmarks.quality;

import dev.prismindex.engine.testing.EngineProbes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The learned ranker's arithmetic, for {@link RankerTraining}'s {@code train} step: a linear model
 * over a query's candidates' features, fitted by a listwise softmax loss with full-batch Adam and
 * L2 from zero weights (deterministic), and evaluated by MRR@10 and R@10 of one hit per definition
 * against the hand-set fusion on the same candidates.
 */
final class RankerFit {
  private RankerFit() {}

  /** One query's candidates: their features {@code x}, labels and definitions' keys. */
  record Query(String tree, String group, String set, double[][] x, boolean[] label,
      String[] definition) {}

  /**
   * Fits the weights by full-batch Adam on the mean listwise softmax loss, {@code -log} of the
   * probability mass of a query's target candidates, plus {@code l2} times the squared weights,
   * around a fixed term: every candidate's score starts at {@code offset} times its feature
   * {@code fixed} (the hand-set stack's place, {@code hand_rrf}: the model learns what to change in
   * that order, and L2 pulls it towards the order, not towards nothing; offset 0 is the plain fit);
   * the returned weights hold the offset ({@code w[fixed] + offset}), so the engine scores them as
   * any weights.
   */
  static double[] fit(List<Query> queries, int dim, int epochs, double l2, int fixed,
      double offset) {
    double[] w = new double[dim];
    double[] m = new double[dim];
    double[] v = new double[dim];
    double lr = 0.05;
    double b1 = 0.9;
    double b2 = 0.999;
    for (int epoch = 1; epoch <= epochs; epoch++) {
      double[] grad = new double[dim];
      int fitted = 0;
      for (Query q : queries) {
        int n = q.x().length;
        boolean any = false;
        for (boolean b : q.label()) {
          any |= b;
        }
        if (!any) {
          continue; // no target among the candidates: nothing to learn from the order
        }
        fitted++;
        double[] s = new double[n];
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
          s[i] = dot(w, q.x()[i]) + offset * q.x()[i][fixed];
          max = Math.max(max, s[i]);
        }
        double z = 0;
        double zPos = 0;
        for (int i = 0; i < n; i++) {
          s[i] = Math.exp(s[i] - max);
          z += s[i];
          if (q.label()[i]) {
            zPos += s[i];
          }
        }
        for (int i = 0; i < n; i++) {
          // d(-log zPos/z)/ds_i = p_i - (label ? s_i / zPos : 0)
          double g = s[i] / z - (q.label()[i] ? s[i] / zPos : 0);
          if (g != 0) {
            double[] xi = q.x()[i];
            for (int j = 0; j < dim; j++) {
              grad[j] += g * xi[j];
            }
          }
        }
      }
      for (int j = 0; j < dim; j++) {
        double g = grad[j] / Math.max(1, fitted) + 2 * l2 * w[j];
        m[j] = b1 * m[j] + (1 - b1) * g;
        v[j] = b2 * v[j] + (1 - b2) * g * g;
        double mh = m[j] / (1 - Math.pow(b1, epoch));
        double vh = v[j] / (1 - Math.pow(b2, epoch));
        w[j] -= lr * mh / (Math.sqrt(vh) + 1e-8);
      }
    }
    w[fixed] += offset;
    return w;
  }

  private static double dot(double[] w, double[] x) {
    double s = 0;
    for (int i = 0; i < w.length; i++) {
      s += w[i] * x[i];
    }
    return s;
  }

  /**
   * MRR@10, R@10 and the query count of the queries of {@code set}, one hit per definition, ranked
   * by {@code w} or, when null, by the hand-set fusion: RRF k = 10 of both ranks (a missing rank
   * counted as the engine's) times 0.5 in an auxiliary file.
   */
  static double[] evaluate(List<Query> queries, String set, double[] w) {
    return evaluate(queries, set, w, false);
  }

  /**
   * The trees of {@code queries} on whose {@code set} queries the model {@code w} ranks worse than
   * the hand-set stack (MRR@10 of each tree's queries), each with the difference, worst first: a
   * model that wins pooled can still lose whole corpora, as the quality benchmark counts them (two
   * corpora a language).
   */
  static List<Map.Entry<String, Double>> treesBelowHand(List<Query> queries, String set,
      double[] w) {
    Map<String, List<Query>> byTree = new TreeMap<>();
    for (Query q : queries) {
      if (q.set().equals(set)) {
        byTree.computeIfAbsent(q.tree(), k -> new ArrayList<>()).add(q);
      }
    }
    List<Map.Entry<String, Double>> out = new ArrayList<>();
    for (Map.Entry<String, List<Query>> e : byTree.entrySet()) {
      double d = evaluate(e.getValue(), set, w)[0] - evaluate(e.getValue(), set, null, true)[0];
      if (d < -1e-9) {
        out.add(Map.entry(e.getKey(), d));
      }
    }
    out.sort(Map.Entry.comparingByValue());
    return out;
  }

  /**
   * {@link #evaluate}, or when {@code hand} (and {@code w} null) ranked as the engine's default
   * stack ranked them (RRF, file coherence, the definition prior, the in-file promotion: the
   * feature {@code hand_rrf}).
   */
  static double[] evaluate(List<Query> queries, String set, double[] w, boolean hand) {
    List<String> names = EngineProbes.rankerFeatures();
    int handRrf = names.indexOf("hand_rrf");
    int lexRrf = names.indexOf("lex_rrf");
    int semRrf = names.indexOf("sem_rrf");
    int aux = names.indexOf("auxiliary");
    double mrr = 0;
    double r10 = 0;
    int n = 0;
    for (Query q : queries) {
      if (!q.set().equals(set)) {
        continue;
      }
      n++;
      int len = q.x().length;
      Integer[] order = new Integer[len];
      double[] s = new double[len];
      for (int i = 0; i < len; i++) {
        order[i] = i;
        double[] x = q.x()[i];
        s[i] = w != null ? dot(w, x) : hand ? x[handRrf]
            : (x[lexRrf] + x[semRrf]) * (x[aux] > 0 ? 0.5 : 1);
      }
      // Stable: equal scores keep the candidates' order (lexical first), as the engine's ties.
      Arrays.sort(order, (a, b) -> Double.compare(s[b], s[a]));
      Set<String> seen = new HashSet<>();
      int rank = 0;
      for (int i : order) {
        if (!seen.add(q.definition()[i])) {
          continue;
        }
        rank++;
        if (rank > 10) {
          break;
        }
        if (q.label()[i]) {
          mrr += 1.0 / rank;
          r10++;
          break;
        }
      }
    }
    return new double[] {n == 0 ? 0 : mrr / n, n == 0 ? 0 : r10 / n, n};
  }
}
