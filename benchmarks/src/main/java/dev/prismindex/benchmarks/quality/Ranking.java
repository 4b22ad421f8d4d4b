package dev.prismindex.benchmarks.quality;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Rank metrics (MRR@10, Recall@1/5/10) and the grep-style baseline ranking. */
final class Ranking {

  /** The deepest rank that counts. */
  static final int DEPTH = 10;

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]{2,}");

  private Ranking() {}

  /**
   * Metrics over a set of queries.
   *
   * @param queries how many queries
   * @param mrr mean reciprocal rank of the first correct hit within the top {@value #DEPTH} (0
   *     when none)
   * @param r1 the share of queries answered at rank 1
   * @param r5 the share answered within the top 5
   * @param r10 the share answered within the top 10
   */
  record Metrics(int queries, double mrr, double r1, double r5, double r10) {

    /** The metrics of {@code ranks} (1-based rank of the first correct hit; 0 = not found). */
    static Metrics of(List<Integer> ranks) {
      double mrr = 0;
      int r1 = 0;
      int r5 = 0;
      int r10 = 0;
      for (int r : ranks) {
        if (r >= 1 && r <= DEPTH) {
          mrr += 1.0 / r;
          r10++;
          if (r <= 5) {
            r5++;
          }
          if (r == 1) {
            r1++;
          }
        }
      }
      int n = Math.max(1, ranks.size());
      return new Metrics(ranks.size(), mrr / n, (double) r1 / n, (double) r5 / n,
          (double) r10 / n);
    }
  }

  /**
   * The grep-style baseline: what ranking files by {@code grep -ci WORD | wc -l} summed over the
   * query's words gives. Words are runs of at least two letters, digits or underscores (no stop
   * words removed, as grep would not); a file's score is, summed over the words, the number of its
   * lines containing the word case-insensitively (as a substring); files with a score of 0 are not
   * ranked; ties go to path order.
   */
  static final class GrepBaseline {
    private final List<String> paths;
    private final List<String> lowered;
    private final Map<String, int[]> cache = new HashMap<>();

    /** A baseline over {@code texts} (path to text), in the order of {@code paths}. */
    GrepBaseline(List<String> paths, Map<String, String> texts) {
      this.paths = List.copyOf(paths);
      this.lowered = new ArrayList<>(paths.size());
      for (String p : paths) {
        lowered.add(texts.get(p).toLowerCase(Locale.ROOT));
      }
    }

    /** The query's words as the baseline sees them. */
    static List<String> words(String query) {
      List<String> out = new ArrayList<>();
      Matcher m = WORD.matcher(query.toLowerCase(Locale.ROOT));
      while (m.find()) {
        out.add(m.group());
      }
      return out;
    }

    /** The top {@value #DEPTH} files for {@code query}, best first. */
    List<String> rank(String query) {
      int[] score = new int[paths.size()];
      for (String w : words(query)) {
        int[] c = cache.computeIfAbsent(w, this::lineCounts);
        for (int i = 0; i < score.length; i++) {
          score[i] += c[i];
        }
      }
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < score.length; i++) {
        if (score[i] > 0) {
          order.add(i);
        }
      }
      order.sort((a, b) -> score[a] != score[b] ? Integer.compare(score[b], score[a])
          : paths.get(a).compareTo(paths.get(b)));
      List<String> out = new ArrayList<>();
      for (int i = 0; i < Math.min(DEPTH, order.size()); i++) {
        out.add(paths.get(order.get(i)));
      }
      return out;
    }

    private int[] lineCounts(String word) {
      int[] counts = new int[lowered.size()];
      for (int f = 0; f < lowered.size(); f++) {
        counts[f] = linesContaining(lowered.get(f), word);
      }
      return counts;
    }

    /** The number of lines of {@code text} containing {@code word}. */
    static int linesContaining(String text, String word) {
      int n = 0;
      int i = text.indexOf(word);
      while (i >= 0) {
        n++;
        int eol = text.indexOf('\n', i + word.length());
        if (eol < 0) {
          break;
        }
        i = text.indexOf(word, eol + 1);
      }
      return n;
    }
  }
}
