package dev.prismindex.benchmarks.quality;

import dev.prismindex.engine.testing.EngineProbes;
import dev.prismindex.engine.testing.EngineProbes.RankerModel;
import dev.prismindex.engine.testing.EngineProbes.RankerTree;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;

/**
 * Trains the engine's learned ranker ({@code scripts/train-ranker}; {@code docs/engine.md}, "The
 * ranker"). Two steps:
 *
 * <p>{@code collect}: the features of the candidates of queries mined from training trees
 * ({@link RankerCollection}).
 *
 * <p>{@code train}: a linear model over the features, fitted by a listwise softmax loss (each
 * query's candidates; the targets' share of the probability mass), full-batch Adam with L2, from
 * zero weights (deterministic: no sampling); with {@code --trees N}, then N shallow regression
 * trees boosted on the same loss from the linear model's scores ({@code RankerFit.boost}).
 * Validation leaves one language out: a model fitted on the other languages' trees is evaluated
 * on that language's queries (MRR@10 of one hit per definition, as the engine returns them) next
 * to the plain fusion (RRF k = 10 with the path prior 0.5) and the hand-set stack (its final
 * order, feature {@code hand_rrf}) on the same candidates. The model fitted on every tree is
 * written as the engine's weights resource with its version.
 */
public final class RankerTraining {

  private RankerTraining() {}

  /**
   * {@code collect --training FILE --quality FILE --trees DIR --work DIR --out FILE [--nl N]
   * [--nav N] [--documented SHARE] [--max-trees-per-language N] [--max-bytes B] [--seed S]} or
   * {@code train --features FILE --out FILE --version ID [--seed S] [--epochs N] [--l2 L]
   * [--offset B] [--trees N] [--depth D] [--rate R] [--validate yes|no]}.
   */
  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      throw new IllegalArgumentException("train-ranker: collect ... | train ...");
    }
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (i + 1 >= args.length || !args[i].startsWith("--")) {
        throw new IllegalArgumentException("train-ranker: bad option " + args[i]);
      }
      o.put(args[i].substring(2), args[i + 1]);
    }
    switch (args[0]) {
      case "collect" -> RankerCollection.collect(o);
      case "train" -> train(o);
      default -> throw new IllegalArgumentException("train-ranker: unknown step " + args[0]);
    }
  }

  /**
   * The option {@code key} as a finite number >= 0, {@code fallback} when absent: a negative or
   * not-a-number L2 or offset would write weights that rank nothing, so it is refused.
   */
  static double atLeastZero(Map<String, String> o, String key, double fallback) {
    String v = o.get(key);
    if (v == null) {
      return fallback;
    }
    try {
      double d = Double.parseDouble(v);
      if (Double.isFinite(d) && d >= 0) {
        return d;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException("train-ranker: --" + key + " wants a number >= 0, not "
        + v);
  }

  static String need(Map<String, String> o, String key) {
    String v = o.get(key);
    if (v == null) {
      throw new IllegalArgumentException("train-ranker: give --" + key);
    }
    return v;
  }

  // ---------------------------------------------------------------------------------------------
  // train

  private static void train(Map<String, String> o) throws IOException {
    Path features = Path.of(need(o, "features"));
    Path out = Path.of(need(o, "out"));
    String version = need(o, "version");
    long seed = Long.parseLong(o.getOrDefault("seed", "38"));
    int epochs = Integer.parseInt(o.getOrDefault("epochs", "300"));
    double l2 = atLeastZero(o, "l2", 0.001);
    double offset = atLeastZero(o, "offset", 0);
    RankerFit.Boost boost = new RankerFit.Boost((int) atLeastZero(o, "trees", 0),
        (int) atLeastZero(o, "depth", RankerFit.Boost.NONE.depth()),
        atLeastZero(o, "rate", RankerFit.Boost.NONE.rate()), RankerFit.Boost.NONE.lambda(),
        RankerFit.Boost.NONE.minHessian());
    if (boost.trees() > 0 && (boost.depth() < 1 || boost.depth() > 8)) {
      throw new IllegalArgumentException("train-ranker: --depth wants 1 to 8, not "
          + boost.depth());
    }
    List<String> names = EngineProbes.rankerFeatures();
    int hand = names.indexOf("hand_rrf");
    List<RankerFit.Query> queries = read(features, names);
    Set<String> groups = new TreeSet<>();
    Map<String, Set<String>> trees = new TreeMap<>();
    for (RankerFit.Query q : queries) {
      groups.add(q.group());
      trees.computeIfAbsent(q.group(), k -> new TreeSet<>()).add(q.tree());
    }
    String settings = String.format(Locale.ROOT, "seed %d, %d epochs, L2 %s, offset %s x hand_rrf"
        + "%s", seed, epochs, l2, offset, boost.trees() == 0 ? "" : String.format(Locale.ROOT,
            ", %d trees of depth %d, rate %s, leaf L2 %s, least hessian %s", boost.trees(),
            boost.depth(), boost.rate(), boost.lambda(), boost.minHessian()));
    System.out.printf(Locale.ROOT, "%d queries (%d natural language) from %d trees; features %d;"
        + " %s%n%n", queries.size(), queries.stream().filter(q -> q.set().equals("nl")).count(),
        trees.values().stream().mapToInt(Set::size).sum(), names.size(), settings);
    boolean boosted = boost.trees() > 0;
    if (!o.getOrDefault("validate", "yes").equals("yes")) {
      groups.clear(); // --validate no: the model on every tree only, no held-out table
    }
    if (!groups.isEmpty()) {
      System.out.println("| held-out language | trees | NL queries | RRF MRR@10 | hand stack"
          + " MRR@10" + (boosted ? " | linear MRR@10" : "") + " | ranker MRR@10 | RRF R@10"
          + " | hand stack R@10 | ranker R@10 | phrase MRR@10 RRF / hand / ranker"
          + " | trees below the hand stack |");
      System.out.println("| --- | ---: | ---: | ---: | ---: |" + (boosted ? " ---: |" : "")
          + " ---: | ---: | ---: | ---: | ---: | --- |");
    }
    double[] pooled = new double[8];
    int below = 0;
    List<Integer> checkpoints = new ArrayList<>();
    for (int k = 25; k < boost.trees(); k *= 2) {
      checkpoints.add(k);
    }
    if (boosted) {
      checkpoints.add(boost.trees());
    }
    double[] byTrees = new double[checkpoints.size()];
    List<StringBuilder> byTreesText = new ArrayList<>();
    checkpoints.forEach(k -> byTreesText.add(new StringBuilder("| " + k + " |")));
    for (String g : groups) {
      List<RankerFit.Query> train = queries.stream().filter(q -> !q.group().equals(g)).toList();
      List<RankerFit.Query> test = queries.stream().filter(q -> q.group().equals(g)).toList();
      double[] w = RankerFit.fit(train, names.size(), epochs, l2, hand, offset);
      RankerModel linear = EngineProbes.rankerModel(version, 0, w, List.of());
      List<RankerTree> fitted = boosted ? RankerFit.boost(train, w, boost) : List.of();
      RankerModel model = EngineProbes.rankerModel(version, 0, w, fitted);
      for (int k = 0; k < checkpoints.size(); k++) {
        double[] c = RankerFit.evaluate(test, "nl",
            EngineProbes.rankerModel(version, 0, w, fitted.subList(0, checkpoints.get(k))));
        byTrees[k] += c[0] * c[2];
        byTreesText.get(k).append(String.format(Locale.ROOT, " %.3f |", c[0]));
      }
      double[] nlR = RankerFit.evaluate(test, "nl", model);
      double[] nlL = RankerFit.evaluate(test, "nl", linear);
      double[] nlB = RankerFit.evaluate(test, "nl", null);
      double[] nlH = RankerFit.evaluate(test, "nl", null, true);
      double[] phR = RankerFit.evaluate(test, "nav-phrase", model);
      double[] phB = RankerFit.evaluate(test, "nav-phrase", null);
      double[] phH = RankerFit.evaluate(test, "nav-phrase", null, true);
      List<Map.Entry<String, Double>> lost = RankerFit.treesBelowHand(test, "nl", model);
      below += lost.size();
      StringBuilder lostText = new StringBuilder().append(lost.size());
      for (Map.Entry<String, Double> e : lost) {
        lostText.append(e == lost.get(0) ? ": " : ", ").append(e.getKey())
            .append(String.format(Locale.ROOT, " %+.3f", e.getValue()));
      }
      System.out.printf(Locale.ROOT, "| %s | %d | %.0f | %.3f | %.3f |%s %.3f | %.3f | %.3f | %.3f"
          + " | %.3f / %.3f / %.3f | %s |%n", g, trees.get(g).size(), nlR[2], nlB[0], nlH[0],
          boosted ? String.format(Locale.ROOT, " %.3f |", nlL[0]) : "", nlR[0], nlB[1], nlH[1],
          nlR[1], phB[0], phH[0], phR[0], lostText);
      pooled[0] += nlB[0] * nlR[2];
      pooled[1] += nlR[0] * nlR[2];
      pooled[2] += nlB[1] * nlR[2];
      pooled[3] += nlR[1] * nlR[2];
      pooled[4] += nlR[2];
      pooled[5] += nlH[0] * nlR[2];
      pooled[6] += nlH[1] * nlR[2];
      pooled[7] += nlL[0] * nlR[2];
    }
    if (!groups.isEmpty()) {
      System.out.printf(Locale.ROOT, "| pooled | %d | %.0f | %.3f | %.3f |%s %.3f | %.3f | %.3f | %.3f"
          + " | | %d |%n%n", trees.values().stream().mapToInt(Set::size).sum(), pooled[4],
          pooled[0] / pooled[4], pooled[5] / pooled[4], boosted ? String.format(Locale.ROOT,
              " %.3f |", pooled[7] / pooled[4]) : "", pooled[1] / pooled[4],
          pooled[2] / pooled[4], pooled[6] / pooled[4], pooled[3] / pooled[4], below);
      if (boosted) {
        System.out.println("Held-out NL MRR@10 by the number of trees (the first k of each fold's):");
        System.out.println();
        System.out.println("| trees | " + String.join(" | ", groups) + " | pooled |");
        System.out.println("| ---: |" + " ---: |".repeat(groups.size() + 1));
        for (int k = 0; k < checkpoints.size(); k++) {
          System.out.println(byTreesText.get(k).append(String.format(Locale.ROOT, " %.3f |",
              byTrees[k] / pooled[4])));
        }
        System.out.println();
      }
    }
    double[] w = RankerFit.fit(queries, names.size(), epochs, l2, hand, offset);
    RankerModel model = EngineProbes.rankerModel(version, 0, w,
        boosted ? RankerFit.boost(queries, w, boost) : List.of());
    double[] all = RankerFit.evaluate(queries, "nl", model);
    System.out.printf(Locale.ROOT, "Fitted on every tree: NL MRR@10 %.3f on its own training"
        + " queries.%n", all[0]);
    String header = "# The learned ranker's weights (docs/engine.md, \"The ranker\"), written by\n"
        + "# scripts/train-ranker (RankerTraining train, " + settings + ") from " + queries.size()
        + " queries of " + trees.values().stream().mapToInt(Set::size).sum()
        + " training trees (" + trees.keySet() + ").\n";
    Files.writeString(out, model.format(header), StandardCharsets.UTF_8);
    System.out.println("Weights written to " + out.getFileName() + " (version " + version + ").");
  }

  private static List<RankerFit.Query> read(Path file, List<String> names) throws IOException {
    List<RankerFit.Query> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(
        Files.newInputStream(file), 1 << 16), StandardCharsets.UTF_8))) {
      String header = r.readLine();
      if (header == null || !header.equals("# features: " + String.join(",", names))) {
        throw new IOException(file + ": collected with other features than the engine's: "
            + header);
      }
      String[] q = null;
      List<double[]> x = new ArrayList<>();
      List<Boolean> y = new ArrayList<>();
      List<String> d = new ArrayList<>();
      for (String line = r.readLine(); ; line = r.readLine()) {
        if (line == null || line.startsWith("Q\t")) {
          if (q != null) {
            boolean[] labels = new boolean[y.size()];
            for (int i = 0; i < labels.length; i++) {
              labels[i] = y.get(i);
            }
            out.add(new RankerFit.Query(q[1], q[2], q[3], x.toArray(new double[0][]), labels,
                d.toArray(new String[0])));
          }
          if (line == null) {
            break;
          }
          q = line.split("\t");
          x = new ArrayList<>();
          y = new ArrayList<>();
          d = new ArrayList<>();
          continue;
        }
        String[] f = line.split("\t", -1);
        while (f.length < names.size() + 2) { // a name holding a line break (written before escaping)
          String next = r.readLine();
          if (next == null) {
            throw new IOException(file + ": truncated row " + line);
          }
          line = line + "\n" + next;
          f = line.split("\t", -1);
        }
        double[] v = new double[names.size()];
        int first = f.length - names.size();
        for (int i = 0; i < v.length; i++) {
          v[i] = Double.parseDouble(f[first + i]);
        }
        y.add(f[0].equals("1"));
        d.add(String.join(" ", java.util.Arrays.asList(f).subList(1, first)));
        x.add(v);
      }
    }
    return out;
  }
}
