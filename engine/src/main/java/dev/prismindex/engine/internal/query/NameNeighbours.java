package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The soft part of the definition prior's name share ({@link DefinitionMatch#nameShare}): a name
 * word the sentence does not say literally counts as much as the cosine of its token vector with
 * the closest of the sentence's words, when that cosine is at least {@link #THRESHOLD}, so that
 * "deletes all flags" says some of {@code removeFlags} and not only of {@code hasAllFlags}. The
 * vectors are the search's own {@link Embedder.Kind#STATIC} model's (prism-code-v1: one token's
 * text embeds to its token's row at unit length; a sentence word on the query side, a name word on
 * the code side); a transformer model or none gives no soft share ({@link #NONE}). One per search:
 * each word is embedded once (a look-up and a row), each name word's closeness kept.
 */
final class NameNeighbours {

  /**
   * The least cosine that counts (0.14): on the mined doc/name pairs of the training trees
   * (scripts/corpora/training.txt), the cosine that best separates a name word its own sentence
   * does not say from the same word against a sibling's sentence (Youden's J: 59 % of the first
   * above it, 26 % of the second). The property is for measuring.
   */
  static final double THRESHOLD =
      Double.parseDouble(System.getProperty("prism.rank.softThreshold", "0.14"));

  /** Which name words may count softly: every one, the first only, or none. */
  enum Words {
    ALL,
    FIRST,
    OFF
  }

  /** Which name words count softly (all; first, off: measured). The property is for measuring. */
  static final Words WORDS = Words.valueOf(
      System.getProperty("prism.rank.softName", "all").toUpperCase(Locale.ROOT));

  /** No soft share: every word not said counts 0. */
  static final NameNeighbours NONE = new NameNeighbours(null, List.of());

  private static final Pattern SPACE = Pattern.compile("[^\\p{L}\\p{N}_$]+");

  private final @Nullable Embedder model;
  private final List<float[]> sentence;
  private final Map<String, Double> known = new HashMap<>();

  private NameNeighbours(@Nullable Embedder model, List<float[]> sentence) {
    this.model = model;
    this.sentence = sentence;
  }

  /**
   * The neighbours of {@code query}'s words (those with a prose stem: not a stop word) in {@code
   * model}'s token table; {@link #NONE} when the model is null or not static, or the soft share
   * is off.
   */
  static NameNeighbours of(@Nullable Embedder model, String query, CodeAnalyzer analyzer) {
    if (model == null || model.kind() != Embedder.Kind.STATIC || WORDS == Words.OFF) {
      return NONE;
    }
    List<float[]> words = new ArrayList<>();
    Map<String, Boolean> seen = new HashMap<>();
    for (String w : SPACE.split(query)) {
      String lower = w.toLowerCase(Locale.ROOT);
      if (lower.isEmpty() || seen.put(lower, Boolean.TRUE) != null
          || analyzer.proseTerms(lower, 1).isEmpty()) {
        continue;
      }
      float[] v = model.embedQuery(lower);
      double n = norm(v);
      if (n > 0) {
        float[] unit = new float[v.length];
        for (int k = 0; k < v.length; k++) {
          unit[k] = (float) (v[k] / n);
        }
        words.add(unit);
      }
    }
    return words.isEmpty() ? NONE : new NameNeighbours(model, words);
  }

  /** Whether the name word at {@code index} (0: the first) may count softly. */
  boolean counts(int index) {
    return model != null && (WORDS == Words.ALL || index == 0);
  }

  /**
   * How much name word {@code word} (as the name spells it) counts though the sentence does not
   * say it: the largest cosine of its vector with a sentence word's, or 0 below {@link
   * #THRESHOLD}.
   */
  double closeness(String word) {
    if (model == null) {
      return 0;
    }
    String key = word.toLowerCase(Locale.ROOT);
    Double c = known.get(key);
    if (c == null) {
      float[] v = model.embed(List.of(key)).get(0);
      double n = norm(v);
      double best = 0;
      if (n > 0) {
        for (float[] s : sentence) {
          double dot = 0;
          for (int k = 0; k < v.length && k < s.length; k++) {
            dot += (double) v[k] * s[k];
          }
          best = Math.max(best, dot / n);
        }
      }
      c = best >= THRESHOLD ? Math.min(1, best) : 0;
      known.put(key, c);
    }
    return c;
  }

  private static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += (double) x * x;
    }
    return Math.sqrt(s);
  }
}
