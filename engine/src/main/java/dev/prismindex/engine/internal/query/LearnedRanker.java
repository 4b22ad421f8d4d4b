package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.internal.semantic.HybridFuser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HYBRID's order with {@code Fusion.learned()} (an option; RRF is the default): a linear model
 * over the {@link RankFeatures} of each candidate, trained offline on doc/code pairs of the training trees (never on the quality
 * benchmark's corpora) by {@code scripts/train-ranker}. A candidate's score is the logistic
 * function of {@code bias + sum(weight * feature)}, in (0, 1); the candidates are ordered by it,
 * then by lexical rank, then by semantic rank. Evaluating it is one dot product per candidate.
 *
 * <p>The weights are the resource {@value #RESOURCE}: a {@code version} line (the model's id,
 * recorded in {@link #version()}), comment lines, {@code bias} and one {@code name<TAB>weight}
 * line per feature, in the order of {@link RankFeatures#NAMES}. A resource whose names differ from
 * the code's is refused when the class loads.
 */
public final class LearnedRanker {

  /** The resource holding the weights. */
  static final String RESOURCE = "ranker.tsv";

  private static final LearnedRanker DEFAULT = load();

  private final String version;
  private final double bias;
  private final double[] weights;

  LearnedRanker(String version, double bias, double[] weights) {
    if (weights.length != RankFeatures.NAMES.size()) {
      throw new IllegalArgumentException("the ranker has " + weights.length + " weights, the code "
          + RankFeatures.NAMES.size() + " features");
    }
    this.version = version;
    this.bias = bias;
    this.weights = weights.clone();
  }

  /** The shipped model. */
  public static LearnedRanker shipped() {
    return DEFAULT;
  }

  /** The model's id, from the resource's {@code version} line. */
  public String version() {
    return version;
  }

  /** The linear score (before the logistic function) of one candidate's features. */
  public double linear(double[] features) {
    double s = bias;
    for (int i = 0; i < weights.length; i++) {
      s += weights[i] * features[i];
    }
    return s;
  }

  /**
   * The candidates ordered by the model, as fused entries whose score is the logistic function of
   * the linear score (ties: lexical rank, then semantic rank).
   */
  public List<HybridFuser.Fused> rank(List<RankFeatures.Row> rows) {
    List<HybridFuser.Fused> out = new ArrayList<>(rows.size());
    for (RankFeatures.Row r : rows) {
      out.add(new HybridFuser.Fused(r.doc(), r.lexical(), r.semantic(),
          1 / (1 + Math.exp(-linear(r.features())))));
    }
    out.sort(HybridFuser.ORDER);
    return out;
  }

  /** Reads the model from {@code in} (the format of the class comment). */
  static LearnedRanker read(InputStream in) throws IOException {
    String version = null;
    Double bias = null;
    Map<String, Double> w = new LinkedHashMap<>();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
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
    return new LearnedRanker(version, bias, weights);
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

  /** A comparator of rows by the model's linear score, best first (for tools). */
  public Comparator<RankFeatures.Row> order() {
    return Comparator.comparingDouble((RankFeatures.Row r) -> linear(r.features())).reversed();
  }
}
