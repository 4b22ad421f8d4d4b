package dev.prismindex.benchmarks.quality;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Compares two runs of the quality benchmark query by query, from their per-query details
 * ({@code WORK/NAME-details.tsv}, {@link Details}): per language and pooled, the hybrid NL MRR@10
 * of each run over the queries both asked, the difference, its paired bootstrap 95 % interval
 * (the queries resampled with replacement {@value #RESAMPLES} times, seed {@value #SEED}: the same
 * runs always give the same table) and how many answers rose and fell. A language whose interval
 * holds zero neither rose nor fell beyond what the choice of queries explains.
 *
 * <pre>
 * java -cp benchmarks.jar dev.prismindex.benchmarks.quality.QualityComparison BEFORE AFTER
 * </pre>
 *
 * <p>BEFORE and AFTER are the two runs' {@code --work} directories. Exit codes: 0 the table
 * printed, 2 bad usage or a directory without details.
 */
final class QualityComparison {

  static final int RESAMPLES = 2000;

  static final long SEED = 38;

  private static final String POOLED = "pooled";

  private QualityComparison() {}

  /** One NL query in one run: its language and its hybrid reciprocal rank (0 outside the ten). */
  record Answer(String language, double reciprocal) {}

  /** One language's comparison: its query count, both MRR@10, the interval and the moves. */
  record Row(String language, int queries, double before, double after, double low, double high,
      int up, int down) {

    double difference() {
      return after - before;
    }
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: QualityComparison BEFORE_WORK_DIR AFTER_WORK_DIR");
      System.exit(2);
    }
    try {
      System.out.print(table(compare(read(Path.of(args[0])), read(Path.of(args[1])))));
    } catch (IllegalArgumentException | IOException | UncheckedIOException e) {
      System.err.println("QualityComparison: " + e.getMessage());
      System.exit(2);
    }
  }

  /**
   * The NL queries' answers of every {@code *-details.tsv} in {@code work}, keyed by corpus, query
   * and the answer's {@code path:start-end}.
   *
   * @throws IllegalArgumentException when {@code work} holds no details
   */
  static Map<String, Answer> read(Path work) throws IOException {
    if (!Files.isDirectory(work)) {
      throw new IllegalArgumentException("not a directory: " + work);
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(work)) {
      files = s.filter(p -> p.getFileName().toString().endsWith("-details.tsv")).sorted().toList();
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no *-details.tsv in " + work);
    }
    Map<String, Answer> out = new LinkedHashMap<>();
    for (Path f : files) {
      List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
      if (lines.isEmpty()) {
        continue;
      }
      List<String> header = List.of(lines.get(0).split("\t", -1));
      int corpus = column(header, "corpus", f);
      int language = column(header, "language", f);
      int set = column(header, "set", f);
      int query = column(header, "query", f);
      int answer = column(header, "answer", f);
      int rank = column(header, "rank hybrid", f);
      for (String line : lines.subList(1, lines.size())) {
        String[] r = line.split("\t", -1);
        if (r.length < header.size() || !r[set].equals("nl")) {
          continue;
        }
        out.put(r[corpus] + '\t' + r[query] + '\t' + r[answer],
            new Answer(r[language], reciprocal(r[rank])));
      }
    }
    return out;
  }

  /** The rows of the queries both runs asked: one per language, then the pooled one. */
  static List<Row> compare(Map<String, Answer> before, Map<String, Answer> after) {
    Map<String, List<double[]>> byLanguage = new TreeMap<>();
    for (Map.Entry<String, Answer> e : before.entrySet()) {
      Answer b = e.getValue();
      Answer a = after.get(e.getKey());
      if (a == null) {
        continue;
      }
      double[] pair = {b.reciprocal(), a.reciprocal()};
      byLanguage.computeIfAbsent(b.language(), k -> new ArrayList<>()).add(pair);
      byLanguage.computeIfAbsent(POOLED, k -> new ArrayList<>()).add(pair);
    }
    if (byLanguage.isEmpty()) {
      throw new IllegalArgumentException("the two runs share no natural-language query");
    }
    List<Row> rows = new ArrayList<>();
    byLanguage.forEach((language, pairs) -> {
      if (!language.equals(POOLED)) {
        rows.add(row(language, pairs));
      }
    });
    rows.add(row(POOLED, byLanguage.get(POOLED)));
    return rows;
  }

  private static Row row(String language, List<double[]> pairs) {
    int n = pairs.size();
    double before = 0;
    double after = 0;
    int up = 0;
    int down = 0;
    double[] diff = new double[n];
    for (int i = 0; i < n; i++) {
      double[] p = pairs.get(i);
      before += p[0];
      after += p[1];
      diff[i] = p[1] - p[0];
      up += diff[i] > 0 ? 1 : 0;
      down += diff[i] < 0 ? 1 : 0;
    }
    SplittableRandom random = new SplittableRandom(SEED);
    double[] means = new double[RESAMPLES];
    for (int k = 0; k < RESAMPLES; k++) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += diff[random.nextInt(n)];
      }
      means[k] = sum / n;
    }
    Arrays.sort(means);
    return new Row(language, n, before / n, after / n, means[(int) (0.025 * RESAMPLES)],
        means[(int) (0.975 * RESAMPLES) - 1], up, down);
  }

  /** The markdown table of {@code rows}. */
  static String table(List<Row> rows) {
    StringBuilder sb = new StringBuilder("| language | queries | before | after | difference "
        + "| 95 % interval | up / down |\n| --- | ---: | ---: | ---: | ---: | --- | --- |\n");
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "| %s | %d | %.4f | %.4f | %+.4f | [%+.4f, %+.4f]%s"
              + " | %d / %d |\n", r.language(), r.queries(), r.before(), r.after(),
          r.difference(), r.low(), r.high(), r.low() > 0 || r.high() < 0 ? " *" : "", r.up(),
          r.down()));
    }
    return sb.append("\n* the interval excludes zero\n").toString();
  }

  private static int column(List<String> header, String name, Path file) {
    int i = header.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException(file + " has no column \"" + name + "\"");
    }
    return i;
  }

  private static double reciprocal(String rank) {
    try {
      int r = Integer.parseInt(rank);
      return r >= 1 && r <= 10 ? 1.0 / r : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
