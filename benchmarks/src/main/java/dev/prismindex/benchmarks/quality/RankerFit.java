package dev.prismindex.benchmarks.quality;

import dev.prismindex.engine.testing.EngineProbes;
import dev.prismindex.engine.testing.EngineProbes.RankerModel;
import dev.prismindex.engine.testing.EngineProbes.RankerTree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

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

  /** The boosted part's settings: trees, their depth, shrinkage, L2 on leaves, least hessian. */
  record Boost(int trees, int depth, double rate, double lambda, double minHessian) {
    static final Boost NONE = new Boost(0, 3, 0.1, 1, 5);
  }

  /** How many thresholds a feature's splits choose from (quantiles of its values). */
  private static final int BINS = 63;

  /**
   * Fits {@code boost.trees()} regression trees to what the linear model {@code w} (as {@link
   * #fit} returns it) gets wrong, by gradient boosting on the same listwise softmax loss: each tree
   * fitted to the loss's gradients and hessians at the current scores (second-order leaves {@code
   * -G / (H + lambda)} times the rate, splits by the usual gain, each side holding a hessian of at
   * least {@code minHessian}), its thresholds among {@value #BINS} quantiles of each feature. No
   * sampling: the same queries give the same trees.
   */
  static List<RankerTree> boost(List<Query> queries, double[] w, Boost boost) {
    List<Query> fitted = queries.stream().filter(RankerFit::hasTarget).toList();
    Bins bins = Bins.of(fitted, w.length);
    double[] score = new double[bins.rows()];
    int r = 0;
    for (Query q : fitted) {
      for (double[] x : q.x()) {
        score[r++] = dot(w, x);
      }
    }
    double[] g = new double[bins.rows()];
    double[] h = new double[bins.rows()];
    int[] node = new int[bins.rows()];
    int splits = (1 << boost.depth()) - 1;
    List<RankerTree> trees = new ArrayList<>();
    for (int t = 0; t < boost.trees(); t++) {
      gradients(fitted, score, g, h);
      RankerTree tree = grow(bins, g, h, boost, node);
      trees.add(tree);
      for (int i = 0; i < bins.rows(); i++) {
        score[i] += tree.leaf()[node[i] - splits];
      }
    }
    return trees;
  }

  /**
   * Every candidate's features as bins: {@code bin[f][i]}, the number of {@code thresholds[f]}
   * (the {@value #BINS} quantiles of feature {@code f}) below candidate {@code i}'s value, the
   * candidates of all queries in order.
   */
  private record Bins(double[][] thresholds, byte[][] bin, int rows) {

    static Bins of(List<Query> fitted, int dim) {
      int rows = 0;
      for (Query q : fitted) {
        rows += q.x().length;
      }
      double[][] thresholds = new double[dim][];
      byte[][] bin = new byte[dim][rows];
      for (int f = 0; f < dim; f++) {
        double[] v = new double[rows];
        int r = 0;
        for (Query q : fitted) {
          for (double[] x : q.x()) {
            v[r++] = x[f];
          }
        }
        thresholds[f] = RankerFit.thresholds(v);
        for (int i = 0; i < rows; i++) {
          bin[f][i] = (byte) binOf(thresholds[f], v[i]);
        }
      }
      return new Bins(thresholds, bin, rows);
    }
  }

  /**
   * One tree fitted to the gradients {@code g} and hessians {@code h}, level by level; {@code
   * node} receives each candidate's leaf (as a node number, the leaves after the splits).
   */
  private static RankerTree grow(Bins bins, double[] g, double[] h, Boost boost, int[] node) {
    int dim = bins.thresholds().length;
    int splits = (1 << boost.depth()) - 1;
    Arrays.fill(node, 0);
    int[] feature = new int[splits];
    int[] splitBin = new int[splits];
    Arrays.fill(feature, -1);
    for (int level = 0; level < boost.depth(); level++) {
      int first = (1 << level) - 1;
      int width = 1 << level;
      double[][][] gh = new double[width][dim][2 * (BINS + 1)];
      // one feature a task (each writes its own histograms; sums in row order: deterministic)
      IntStream.range(0, dim).parallel().forEach(f -> {
        byte[] bf = bins.bin()[f];
        for (int i = 0; i < bins.rows(); i++) {
          double[] hist = gh[node[i] - first][f];
          int b = 2 * (bf[i] & 0xff);
          hist[b] += g[i];
          hist[b + 1] += h[i];
        }
      });
      for (int n = 0; n < width; n++) {
        split(gh[n], bins.thresholds(), boost, first + n, feature, splitBin);
      }
      for (int i = 0; i < bins.rows(); i++) {
        int f = feature[node[i]];
        // right when x > thresholds[f][b], i.e. its bin is above b
        int right = f >= 0 && (bins.bin()[f][i] & 0xff) > splitBin[node[i]] ? 2 : 1;
        node[i] = 2 * node[i] + right;
      }
    }
    double[] gLeaf = new double[splits + 1];
    double[] hLeaf = new double[splits + 1];
    for (int i = 0; i < bins.rows(); i++) {
      gLeaf[node[i] - splits] += g[i];
      hLeaf[node[i] - splits] += h[i];
    }
    double[] leaf = new double[splits + 1];
    for (int l = 0; l <= splits; l++) {
      leaf[l] = -boost.rate() * gLeaf[l] / (hLeaf[l] + boost.lambda());
    }
    double[] threshold = new double[splits];
    for (int n = 0; n < splits; n++) {
      threshold[n] = feature[n] >= 0 ? bins.thresholds()[feature[n]][splitBin[n]] : 0;
    }
    return new RankerTree(boost.depth(), feature, threshold, leaf);
  }

  /**
   * The best split of node {@code at} by its histograms {@code gh} (per feature, gradient and
   * hessian sums per bin): the feature and threshold of the largest gain whose sides each hold a
   * hessian of at least {@code boost.minHessian()}, written to {@code feature} and {@code
   * splitBin} (the split's threshold is {@code thresholds[feature][splitBin]}); none (feature -1)
   * when no split gains.
   */
  private static void split(double[][] gh, double[][] thresholds, Boost boost, int at,
      int[] feature, int[] splitBin) {
    double bestGain = 1e-9;
    for (int f = 0; f < gh.length; f++) {
      double[] hist = gh[f];
      double gAll = 0;
      double hAll = 0;
      for (int b = 0; b <= BINS; b++) {
        gAll += hist[2 * b];
        hAll += hist[2 * b + 1];
      }
      double gl = 0;
      double hl = 0;
      for (int b = 0; b < thresholds[f].length; b++) {
        gl += hist[2 * b];
        hl += hist[2 * b + 1];
        double hr = hAll - hl;
        if (hl < boost.minHessian() || hr < boost.minHessian()) {
          continue;
        }
        double gr = gAll - gl;
        double gain = gl * gl / (hl + boost.lambda()) + gr * gr / (hr + boost.lambda())
            - gAll * gAll / (hAll + boost.lambda());
        if (gain > bestGain) {
          bestGain = gain;
          feature[at] = f;
          splitBin[at] = b;
        }
      }
    }
  }

  /** Whether a query has a target among its candidates (else it teaches no order). */
  private static boolean hasTarget(Query q) {
    for (boolean b : q.label()) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  /**
   * The listwise softmax loss's gradient and (diagonal, Gauss-Newton) hessian per candidate at
   * {@code score}: {@code p - q} and {@code p (1 - p)}, {@code p} the candidate's softmax share,
   * {@code q} its share of the targets' mass.
   */
  private static void gradients(List<Query> fitted, double[] score, double[] g, double[] h) {
    int r = 0;
    for (Query q : fitted) {
      int n = q.x().length;
      double max = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < n; i++) {
        max = Math.max(max, score[r + i]);
      }
      double z = 0;
      double zPos = 0;
      for (int i = 0; i < n; i++) {
        double e = Math.exp(score[r + i] - max);
        z += e;
        zPos += q.label()[i] ? e : 0;
      }
      for (int i = 0; i < n; i++) {
        double e = Math.exp(score[r + i] - max);
        double p = e / z;
        g[r + i] = p - (q.label()[i] ? e / zPos : 0);
        h[r + i] = Math.max(p * (1 - p), 1e-6);
      }
      r += n;
    }
  }

  /**
   * Up to {@value #BINS} thresholds of a feature, ascending: between neighbouring values when it
   * takes few, else its quantiles.
   */
  private static double[] thresholds(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    double[] distinct = Arrays.stream(v).distinct().toArray();
    if (distinct.length <= BINS + 1) {
      double[] t = new double[Math.max(0, distinct.length - 1)];
      for (int i = 0; i < t.length; i++) {
        t[i] = (distinct[i] + distinct[i + 1]) / 2;
      }
      return t;
    }
    TreeSet<Double> t = new TreeSet<>();
    for (int i = 1; i <= BINS; i++) {
      double q = v[(int) ((long) i * (v.length - 1) / (BINS + 1))];
      if (q < v[v.length - 1]) {
        t.add(q);
      }
    }
    return t.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The bin of {@code x}: how many thresholds it exceeds. */
  private static int binOf(double[] thresholds, double x) {
    int lo = 0;
    int hi = thresholds.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (x > thresholds[mid]) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
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
   * by {@code model} or, when null, by the hand-set fusion: RRF k = 10 of both ranks (a missing rank
   * counted as the engine's) times 0.5 in an auxiliary file.
   */
  static double[] evaluate(List<Query> queries, String set, RankerModel model) {
    return evaluate(queries, set, model, false);
  }

  /**
   * The trees of {@code queries} on whose {@code set} queries the model ranks worse than the
   * hand-set stack (MRR@10 of each tree's queries), each with the difference, worst first: a model
   * that wins pooled can still lose whole corpora, as the quality benchmark counts them (two
   * corpora a language).
   */
  static List<Map.Entry<String, Double>> treesBelowHand(List<Query> queries, String set,
      RankerModel model) {
    Map<String, List<Query>> byTree = new TreeMap<>();
    for (Query q : queries) {
      if (q.set().equals(set)) {
        byTree.computeIfAbsent(q.tree(), k -> new ArrayList<>()).add(q);
      }
    }
    List<Map.Entry<String, Double>> out = new ArrayList<>();
    for (Map.Entry<String, List<Query>> e : byTree.entrySet()) {
      double d = evaluate(e.getValue(), set, model)[0]
          - evaluate(e.getValue(), set, null, true)[0];
      if (d < -1e-9) {
        out.add(Map.entry(e.getKey(), d));
      }
    }
    out.sort(Map.Entry.comparingByValue());
    return out;
  }

  /**
   * {@link #evaluate}, or when {@code hand} (and {@code model} null) ranked as the engine's default
   * stack ranked them (RRF, file coherence, the definition prior, the in-file promotion: the
   * feature {@code hand_rrf}).
   */
  static double[] evaluate(List<Query> queries, String set, RankerModel model, boolean hand) {
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
        s[i] = model != null ? model.score(x) : hand ? x[handRrf]
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
