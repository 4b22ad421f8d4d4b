package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.semantic.HybridFuser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HYBRID's order with {@code Fusion.learned()} (the default; {@code Fusion.rrf()} keeps the
 * hand-set stack's order): a linear model over the {@link RankFeatures} of each candidate plus,
 * optionally, shallow regression trees
 * fitted to what the linear model gets wrong (boosted), trained offline on doc/code pairs of the
 * training trees (never on the quality benchmark's corpora) by {@code scripts/train-ranker}. A
 * candidate's score is the logistic function of {@code bias + sum(weight * feature) + sum(tree
 * leaf)}, in (0, 1); the candidates are ordered by it, then by lexical rank, then by semantic
 * rank. Evaluating it is one dot product and one root-to-leaf walk per tree per candidate.
 *
 * <p>The weights are the resource {@value #RESOURCE}: a {@code version} line (the model's id,
 * recorded in {@link #version()}), comment lines, {@code bias} and one {@code name<TAB>weight}
 * line per feature, in the order of {@link RankFeatures#NAMES}, then one {@code tree} line per
 * tree ({@link Tree#format()}). A resource whose names differ from the code's is refused when the
 * class loads.
 */
public final class LearnedRanker {

  /** The resource holding the weights. */
  static final String RESOURCE = "ranker.tsv";

  private static final LearnedRanker DEFAULT = load();

  private final String version;
  private final double bias;
  private final double[] weights;
  private final List<Tree> trees;

  /**
   * A model of {@code weights} (one per feature of {@link RankFeatures#NAMES}) and {@code trees}
   * (none: a linear model).
   */
  public LearnedRanker(String version, double bias, double[] weights, List<Tree> trees) {
    if (weights.length != RankFeatures.NAMES.size()) {
      throw new IllegalArgumentException("the ranker has " + weights.length + " weights, the code "
          + RankFeatures.NAMES.size() + " features");
    }
    this.version = version;
    this.bias = bias;
    this.weights = weights.clone();
    this.trees = List.copyOf(trees);
  }

  /**
   * One regression tree of the boosted part: complete and binary, {@code depth} levels of splits
   * stored level by level (node {@code i}'s children are {@code 2i + 1} and {@code 2i + 2}); a
   * split sends a candidate right when its feature {@code feature[i]} exceeds {@code threshold[i]},
   * a node with feature -1 sends every candidate left; {@code 2^depth} leaves hold the values
   * added to the score.
   */
  public record Tree(int depth, int[] feature, double[] threshold, double[] leaf) {

    /** Checks the shape: {@code 2^depth - 1} splits over known features, {@code 2^depth} leaves. */
    public Tree {
      int splits = (1 << depth) - 1;
      if (depth < 1 || depth > 8 || feature.length != splits || threshold.length != splits
          || leaf.length != splits + 1) {
        throw new IllegalArgumentException("a tree of depth " + depth + " has " + splits
            + " splits and " + (splits + 1) + " leaves, not " + feature.length + " and "
            + leaf.length);
      }
      for (int f : feature) {
        if (f < -1 || f >= RankFeatures.NAMES.size()) {
          throw new IllegalArgumentException("a tree splits on no feature: " + f);
        }
      }
      feature = feature.clone();
      threshold = threshold.clone();
      leaf = leaf.clone();
    }

    /** The leaf value the features {@code x} reach. */
    public double value(double[] x) {
      int node = 0;
      for (int level = 0; level < depth; level++) {
        int f = feature[node];
        node = 2 * node + (f >= 0 && x[f] > threshold[node] ? 2 : 1);
      }
      return leaf[node - feature.length];
    }

    /**
     * The resource's form after {@code tree<TAB>}: the depth, a tab, the splits as {@code
     * name>threshold} (or {@code -}) separated by spaces, a tab, the leaves separated by spaces.
     */
    public String format() {
      StringBuilder sb = new StringBuilder().append(depth).append('\t');
      for (int i = 0; i < feature.length; i++) {
        sb.append(i == 0 ? "" : " ").append(feature[i] < 0 ? "-"
            : RankFeatures.NAMES.get(feature[i]) + ">" + threshold[i]);
      }
      sb.append('\t');
      for (int i = 0; i < leaf.length; i++) {
        sb.append(i == 0 ? "" : " ").append(leaf[i]);
      }
      return sb.toString();
    }

    /** Reads {@link #format()}'s form. */
    static Tree parse(String depth, String splits, String leaves) {
      String[] s = splits.split(" ");
      int[] f = new int[s.length];
      double[] t = new double[s.length];
      for (int i = 0; i < s.length; i++) {
        if (s[i].equals("-")) {
          f[i] = -1;
          continue;
        }
        int gt = s[i].lastIndexOf('>');
        f[i] = gt < 0 ? -2 : RankFeatures.NAMES.indexOf(s[i].substring(0, gt));
        if (f[i] < 0) {
          throw new IllegalArgumentException("a tree splits on an unknown feature: " + s[i]);
        }
        t[i] = Double.parseDouble(s[i].substring(gt + 1));
      }
      return new Tree(Integer.parseInt(depth), f, t,
          java.util.Arrays.stream(leaves.split(" ")).mapToDouble(Double::parseDouble).toArray());
    }
  }

  /** The shipped model. */
  public static LearnedRanker shipped() {
    return DEFAULT;
  }

  /** The model's id, from the resource's {@code version} line. */
  public String version() {
    return version;
  }

  /** The model's score (before the logistic function) of one candidate's features. */
  public double score(double[] features) {
    double s = bias;
    for (int i = 0; i < weights.length; i++) {
      s += weights[i] * features[i];
    }
    for (Tree t : trees) {
      s += t.value(features);
    }
    return s;
  }

  /** The resource's text of this model after {@code header} (comment lines). */
  public String format(String header) {
    StringBuilder sb = new StringBuilder(header).append("version\t").append(version).append('\n')
        .append("bias\t").append(bias).append('\n');
    for (int i = 0; i < weights.length; i++) {
      sb.append(RankFeatures.NAMES.get(i)).append('\t')
          .append(String.format(java.util.Locale.ROOT, "%.6f", weights[i])).append('\n');
    }
    for (Tree t : trees) {
      sb.append("tree\t").append(t.format()).append('\n');
    }
    return sb.toString();
  }

  /**
   * The candidates ordered by the model, as fused entries whose score is the logistic function of
   * the model's score (ties: lexical rank, then semantic rank).
   */
  public List<HybridFuser.Fused> rank(List<RankFeatures.Row> rows) {
    List<HybridFuser.Fused> out = new ArrayList<>(rows.size());
    for (RankFeatures.Row r : rows) {
      out.add(new HybridFuser.Fused(r.doc(), r.lexical(), r.semantic(),
          1 / (1 + Math.exp(-score(r.features())))));
    }
    out.sort(HybridFuser.ORDER);
    return out;
  }

  /** Reads the model from {@code in} (the format of the class comment). */
  static LearnedRanker read(InputStream in) throws IOException {
    String version = null;
    Double bias = null;
    Map<String, Double> w = new LinkedHashMap<>();
    List<Tree> trees = new ArrayList<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      if (f[0].equals("tree")) {
        if (f.length != 4) {
          throw new IOException("ranker weights: not tree<TAB>depth<TAB>splits<TAB>leaves: "
              + line);
        }
        try {
          trees.add(Tree.parse(f[1], f[2], f[3]));
        } catch (IllegalArgumentException e) {
          throw new IOException("ranker weights: " + e.getMessage() + ": " + line, e);
        }
        continue;
      }
      if (f.length != 2) {
        throw new IOException("ranker weights: not name<TAB>value: " + line);
      }
      switch (f[0]) {
        case "version" -> version = f[1];
        case "bias" -> bias = Double.parseDouble(f[1]);
        default -> w.put(f[0], Double.parseDouble(f[1]));
      }
    }
    if (version == null || bias == null || !new ArrayList<>(w.keySet()).equals(RankFeatures.NAMES)) {
      throw new IOException("ranker weights: expected a version, a bias and the features "
          + RankFeatures.NAMES + ", found " + w.keySet());
    }
    double[] weights = new double[w.size()];
    int i = 0;
    for (double v : w.values()) {
      weights[i++] = v;
    }
    return new LearnedRanker(version, bias, weights, trees);
  }

  private static LearnedRanker load() {
    try (InputStream in = LearnedRanker.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the ranker's weights are missing: " + RESOURCE);
      }
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
