package dev.prismindex.benchmarks.quality;

import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether a second semantic tier would add quality in hybrid search: over the queries of two runs
 * of {@code scripts/bench-quality} on the same corpora, one per model (their work directories keep
 * each corpus's index and its {@code NAME-details.tsv}), it takes the engine's own rankings
 * (lexical, and semantic with each model; top {@value #LISTS} each) and fuses them with HYBRID's
 * rule, reciprocal rank fusion with k = {@value #K} over cut rankings (a hit missing from a full
 * list counts as ranked just below it), two lists against three. It prints MRR@10 per
 * configuration, pooled ({@code all}), per language ({@code language NAME}) and per corpus, next to the engine's own HYBRID on the first
 * run's index (which adds the path prior and the identifier guard to the fusion, so compare the
 * fused columns with each other).
 *
 * <pre>
 * scripts/bench-quality --embedder prism-code-v1-t1 --work A
 * scripts/bench-quality --embedder all-minilm-l6-v2-q-t64 --work B
 * java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.quality.TierFusion \
 *   A prism-code-v1-t1 B all-minilm-l6-v2-q-t64 jdk,python,go nl
 * </pre>
 *
 * The last argument is the query set: {@code nl}, {@code nav-identifier} or {@code nav-phrase}.
 */
public final class TierFusion {

  static final int K = 10;
  static final int LISTS = 50;

  private TierFusion() {}

  /** A hit as the benchmark judges it: its file and line; one per chunk (path and end line). */
  private record Found(String path, int line, int end) {
    String key() {
      return path + "#" + end;
    }
  }

  private static final String[] COLUMNS = {"lexical", "first", "second", "engine hybrid (first)",
      "L+first", "L+second", "L+first+second", "L+2 first"};

  public static void main(String[] args) throws IOException {
    if (args.length != 6) {
      System.err.println("usage: TierFusion FIRST_WORK FIRST_MODEL SECOND_WORK SECOND_MODEL"
          + " CORPORA SET");
      System.exit(2);
    }
    Path firstWork = Path.of(args[0]);
    Path secondWork = Path.of(args[2]);
    String set = args[5];
    Map<String, double[]> sums = new TreeMap<>();
    Map<String, Integer> counts = new TreeMap<>();
    for (String corpus : args[4].split(",")) {
      try (HybridIndex first = open(firstWork.resolve(corpus), args[1]);
          HybridIndex second = open(secondWork.resolve(corpus), args[3])) {
        List<String> lines = Files.readAllLines(firstWork.resolve(corpus + "-details.tsv"));
        for (String line : lines.subList(1, lines.size())) {
          String[] f = line.split("\t", -1);
          if (!f[2].equals(set)) {
            continue;
          }
          String query = f[3];
          int colon = f[4].lastIndexOf(':');
          String file = f[4].substring(0, colon);
          String[] range = f[4].substring(colon + 1).split("-");
          int from = Integer.parseInt(range[0]);
          int to = Integer.parseInt(range[range.length - 1]);
          List<Found> lex = ranking(first, query, SearchMode.LEXICAL);
          List<Found> a = ranking(first, query, SearchMode.SEMANTIC);
          List<Found> b = ranking(second, query, SearchMode.SEMANTIC);
          List<List<Found>> columns = List.of(lex, a, b, ranking(first, query, SearchMode.HYBRID),
              fuse(List.of(lex, a), new double[] {1, 1}),
              fuse(List.of(lex, b), new double[] {1, 1}),
              fuse(List.of(lex, a, b), new double[] {1, 1, 1}),
              fuse(List.of(lex, a), new double[] {1, 2}));
          for (String group : new String[] {"all", "language " + f[1], corpus}) {
            double[] s = sums.computeIfAbsent(group, g -> new double[COLUMNS.length]);
            for (int i = 0; i < COLUMNS.length; i++) {
              int r = rank(columns.get(i), file, from, to);
              s[i] += r == 0 ? 0 : 1.0 / r;
            }
            counts.merge(group, 1, Integer::sum);
          }
        }
      }
    }
    System.out.println("MRR@10, set " + set + "; first = " + args[1] + ", second = " + args[3]);
    System.out.println();
    System.out.println("| group | queries | " + String.join(" | ", COLUMNS) + " |");
    System.out.println("| --- | ---:" + " | ---:".repeat(COLUMNS.length) + " |");
    for (Map.Entry<String, double[]> e : sums.entrySet()) {
      StringBuilder row = new StringBuilder("| " + e.getKey() + " | " + counts.get(e.getKey()));
      for (double v : e.getValue()) {
        row.append(String.format(Locale.ROOT, " | %.3f", v / counts.get(e.getKey())));
      }
      System.out.println(row + " |");
    }
  }

  private static HybridIndex open(Path root, String model) throws IOException {
    return HybridIndex.open(HybridIndexOptions.builder(root)
        .embedder(EmbedderProvider.find(model).orElseThrow(
            () -> new IllegalArgumentException("no model " + model)).create()).build());
  }

  private static List<Found> ranking(HybridIndex index, String query, SearchMode mode)
      throws IOException {
    List<Found> out = new ArrayList<>();
    for (Hit h : index.search(query, new SearchOpts(LISTS, mode, null))) {
      out.add(new Found(h.path(), h.line(), h.endLine()));
    }
    return out;
  }

  /** RRF with cut rankings; a hit keeps the line of the first list that has it. */
  private static List<Found> fuse(List<List<Found>> lists, double[] weights) {
    Map<String, Found> first = new LinkedHashMap<>();
    List<Map<String, Integer>> ranks = new ArrayList<>();
    for (List<Found> list : lists) {
      Map<String, Integer> r = new HashMap<>();
      for (int i = 0; i < list.size(); i++) {
        first.putIfAbsent(list.get(i).key(), list.get(i));
        r.putIfAbsent(list.get(i).key(), i + 1);
      }
      ranks.add(r);
    }
    Map<String, Double> score = new HashMap<>();
    for (String key : first.keySet()) {
      double s = 0;
      for (int l = 0; l < lists.size(); l++) {
        Integer r = ranks.get(l).get(key);
        if (r != null) {
          s += weights[l] / (K + r);
        } else if (lists.get(l).size() >= LISTS) {
          s += weights[l] / (K + LISTS + 1);
        }
      }
      score.put(key, s);
    }
    List<String> keys = new ArrayList<>(first.keySet());
    keys.sort((x, y) -> Double.compare(score.get(y), score.get(x)));
    return keys.stream().map(first::get).toList();
  }

  private static int rank(List<Found> hits, String file, int from, int to) {
    for (int i = 0; i < Math.min(Ranking.DEPTH, hits.size()); i++) {
      Found h = hits.get(i);
      if (h.path().equals(file) && h.line() >= from && h.line() <= to) {
        return i + 1;
      }
    }
    return 0;
  }
}
