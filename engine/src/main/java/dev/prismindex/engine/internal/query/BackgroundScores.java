package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.internal.search.FileSource;
import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What a repository's own search scores for a query it has no particular answer to: the mean and
 * spread of its hits' best lexical (BM25, its own statistics) and best semantic (cosine) score over
 * fixed background sentences ({@value #RESOURCE}: generic doc-comment sentences, the same for every
 * repository). A large repository reaches high scores for any sentence (it holds something close to
 * everything); {@link #z} says how far a query's best scores stand above that, which compares
 * across repositories of any size, as an e-value does across databases.
 *
 * <p>Learned once per index commit and model (a few dozen searches) and kept in the index home
 * ({@value #FILE}, keyed by the commit's version, the model and the sentences), so a changed index
 * learns again.
 *
 * @param lexicalMean the mean of the best BM25 score
 * @param lexicalSd its standard deviation
 * @param semanticMean the mean of the best cosine
 * @param semanticSd its standard deviation
 */
record BackgroundScores(double lexicalMean, double lexicalSd, double semanticMean,
    double semanticSd) {

  /** The background sentences, one a line ({@code #} starts a comment line). */
  static final String RESOURCE = "background.txt";

  /** The file in the index home keeping them. */
  static final String FILE = "background-scores";

  /** Hits of each background search looked at (as many as the workspace's own searches ask). */
  static final int LIMIT = 10;

  /** The smallest spread a z-score divides by (a repository answering every sentence alike). */
  private static final double MIN_SD = 1e-6;

  private static final List<String> SENTENCES = sentences();

  private static final Map<Path, Cached> CACHE = new ConcurrentHashMap<>();

  private record Cached(String key, BackgroundScores scores) {}

  /**
   * The background scores of the index in {@code home} at commit {@code version}, searched with
   * {@code model} ({@code null}: lexical only): from memory, else from the index home's file when
   * its key matches, else learned by searching {@code reader} (then written beside the index; a
   * home that cannot be written to only keeps them in memory).
   */
  static BackgroundScores of(Path home, long version, @Nullable Embedder model,
      StoreReader reader, FileSource files, RankedSearch ranked) throws IOException {
    String key = version + "\t" + (model == null ? "-" : model.id() + "/" + model.dimension())
        + "\t" + Integer.toHexString(String.join("\n", SENTENCES).hashCode());
    Cached c = CACHE.get(home);
    if (c != null && c.key().equals(key)) {
      return c.scores();
    }
    BackgroundScores s = read(home.resolve(FILE), key);
    if (s == null) {
      s = learn(model, reader, files, ranked);
      write(home.resolve(FILE), key, s);
    }
    CACHE.put(home, new Cached(key, s));
    return s;
  }

  /** Learns them: each background sentence searched as a hybrid query of {@code reader}. */
  static BackgroundScores learn(@Nullable Embedder model, StoreReader reader, FileSource files,
      RankedSearch ranked) throws IOException {
    double[] lexical = new double[SENTENCES.size()];
    double[] semantic = new double[SENTENCES.size()];
    for (int i = 0; i < SENTENCES.size(); i++) {
      String sentence = SENTENCES.get(i);
      float[] unit = model == null ? null : QueryPlanner.embedQuery(model, sentence);
      List<Hit> hits = ranked.hits(reader, files, sentence, unit, SearchOpts.hybrid(LIMIT)).hits();
      lexical[i] = best(hits, true);
      semantic[i] = best(hits, false);
    }
    return new BackgroundScores(mean(lexical), sd(lexical), mean(semantic), sd(semantic));
  }

  /**
   * How far {@code hits}' (a query's own search of the repository) best lexical and best semantic
   * scores stand above the background's, in standard deviations, averaged over the two engines.
   */
  double z(List<Hit> hits) {
    double lexical = (best(hits, true) - lexicalMean) / Math.max(lexicalSd, MIN_SD);
    double semantic = (best(hits, false) - semanticMean) / Math.max(semanticSd, MIN_SD);
    return (lexical + semantic) / 2;
  }

  /** The best raw score of one engine among {@code hits} (0 when none has one). */
  static double best(List<Hit> hits, boolean lexical) {
    double best = 0;
    for (Hit h : hits) {
      var e = lexical ? h.lexical() : h.semantic();
      if (e != null) {
        best = Math.max(best, e.score());
      }
    }
    return best;
  }

  /** The standard normal distribution function at {@code z} (Abramowitz and Stegun 7.1.26). */
  static double normal(double z) {
    double x = Math.abs(z) / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * x);
    double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t
        - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
    return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
  }

  private static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return v.length == 0 ? 0 : s / v.length;
  }

  private static double sd(double[] v) {
    double m = mean(v);
    double s = 0;
    for (double x : v) {
      s += (x - m) * (x - m);
    }
    return v.length < 2 ? 0 : Math.sqrt(s / (v.length - 1));
  }

  private static @Nullable BackgroundScores read(Path file, String key) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      if (lines.size() != 2 || !lines.get(0).equals(key)) {
        return null;
      }
      String[] f = lines.get(1).split("\t");
      return new BackgroundScores(Double.parseDouble(f[0]), Double.parseDouble(f[1]),
          Double.parseDouble(f[2]), Double.parseDouble(f[3]));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static void write(Path file, String key, BackgroundScores s) {
    try {
      Path tmp = Files.createTempFile(file.getParent(), FILE, ".tmp");
      Files.writeString(tmp, key + "\n" + s.lexicalMean() + "\t" + s.lexicalSd() + "\t"
          + s.semanticMean() + "\t" + s.semanticSd() + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      // a home that cannot be written to: learned again by the next process
    }
  }

  private static List<String> sentences() {
    try (InputStream in = BackgroundScores.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String t = line.strip();
        if (!t.isEmpty() && !t.startsWith("#")) {
          out.add(t);
        }
      }
      return List.copyOf(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
