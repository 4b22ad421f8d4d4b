package dev.prismindex.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Prints the common trigrams of the literal index (the engine's resource {@code common-grams.txt}):
 * the trigrams of lower-cased lines and paths found in at least THRESHOLD of the files of a corpus,
 * on average over the corpora given (each counts the same, whatever its size). A file counts when it
 * is UTF-8 text without NUL of at most 1 MiB, outside {@code .git}. Output: the resource's lines,
 * most common first, three UTF-16 units in hex, a tab, the gram (space shown as U+00B7, tab as
 * U+2192), after a header to replace by the resource's own; on standard error, the share of each
 * corpus's (file, trigram) pairs the common trigrams are.
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.CommonGrams \
 *     0.3 CORPUS...}</pre>
 */
public final class CommonGrams {
  private CommonGrams() {}

  public static void main(String[] args) throws IOException {
    double threshold = Double.parseDouble(args[0]);
    Map<String, Double> share = new HashMap<>();
    int corpora = args.length - 1;
    List<Map<String, Integer>> dfs = new ArrayList<>();
    for (int a = 1; a < args.length; a++) {
      Path root = Path.of(args[a]);
      List<Path> files;
      try (Stream<Path> s = Files.walk(root)) {
        files = s.filter(Files::isRegularFile).filter(p -> !root.relativize(p).startsWith(".git"))
            .sorted().toList();
      }
      Map<String, Integer> df = new HashMap<>();
      int counted = 0;
      for (Path p : files) {
        String text = text(p);
        if (text == null) {
          continue;
        }
        counted++;
        Set<String> grams = new HashSet<>();
        for (String line : text.split("\r\n|\r|\n", -1)) {
          trigrams(line, grams);
        }
        trigrams(root.relativize(p).toString(), grams);
        grams.forEach(g -> df.merge(g, 1, Integer::sum));
      }
      int n = counted;
      df.forEach((g, c) -> share.merge(g, (double) c / n / corpora, Double::sum));
      dfs.add(df);
    }
    List<Map.Entry<String, Double>> common = new ArrayList<>();
    for (Map.Entry<String, Double> e : share.entrySet()) {
      if (e.getValue() >= threshold) {
        common.add(e);
      }
    }
    common.sort(Map.Entry.<String, Double>comparingByValue().reversed()
        .thenComparing(Map.Entry.comparingByKey()));
    for (int a = 0; a < corpora; a++) {
      long pairs = 0;
      long left = 0;
      for (Map.Entry<String, Integer> e : dfs.get(a).entrySet()) {
        pairs += e.getValue();
        left += share.get(e.getKey()) >= threshold ? e.getValue() : 0;
      }
      System.err.printf("%s: common trigrams are %.1f %% of its (file, trigram) pairs%n",
          args[a + 1], 100.0 * left / pairs);
    }
    System.out.printf("# %d trigrams in at least %s of the files of a corpus, on average over %d%n",
        common.size(), threshold, corpora);
    for (Map.Entry<String, Double> e : common) {
      String g = e.getKey();
      System.out.printf("%04x %04x %04x\t%s%n", (int) g.charAt(0), (int) g.charAt(1),
          (int) g.charAt(2), g.replace(' ', '\u00b7').replace('\t', '\u2192'));
    }
  }

  private static void trigrams(String line, Set<String> out) {
    String lower = line.toLowerCase(Locale.ROOT);
    for (int i = 0; i + 3 <= lower.length(); i++) {
      out.add(lower.substring(i, i + 3));
    }
  }

  private static String text(Path p) throws IOException {
    if (Files.size(p) > 1 << 20) {
      return null;
    }
    try {
      String s = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(p)))
          .toString();
      return s.indexOf('\0') >= 0 ? null : s;
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
