package dev.prismindex.engine.internal.analysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The n-grams of the literal index, over {@code toLowerCase(Locale.ROOT)} of each line: the same
 * lower-casing the literal scanner applies. A line of three UTF-16 units or more gives its
 * trigrams; a line of exactly two gives that bigram; shorter lines give nothing. Every substring of
 * a line is therefore inside an indexed gram: a trigram query needs its trigrams as terms, a bigram
 * query a term containing the bigram (a trigram that starts or ends with it, or a two-unit line), and
 * a one-unit query no filter at all (nearly every file holds any one character). So "the scanner
 * matches" implies "the file is a candidate": candidate selection never loses a match. Unigrams and
 * bigrams of long lines are not indexed: they were a third of the index's postings.
 *
 * <p>Nor are the {@linkplain #isCommon common trigrams}, those found in most files of most code
 * ({@code "   "}, {@code "ion"}, {@code "imp"}; the list is a resource of this package): they
 * were a quarter to two fifths of the literal index's postings and select almost nothing. A query
 * never requires them of a file, nor a bigram that one of them contains; a query left with no gram
 * reads every file in path order, as a one-unit query does, until it has its matches.
 */
public final class Grams {

  /** The longest gram. */
  public static final int N = 3;

  private static final Set<String> COMMON = loadCommon();
  /** Every bigram inside a common trigram: a file may hold it only inside those. */
  private static final Set<String> COMMON_BIGRAMS = bigramsOf(COMMON);

  private Grams() {}

  /** Whether {@code trigram} (lower-cased) is common: never indexed, never required of a file. */
  public static boolean isCommon(String trigram) {
    return COMMON.contains(trigram);
  }

  /** The common trigrams, in no particular order. */
  static Set<String> common() {
    return COMMON;
  }

  private static Set<String> loadCommon() {
    Set<String> out = new HashSet<>();
    try (InputStream in = Grams.class.getResourceAsStream("common-grams.txt")) {
      if (in == null) {
        throw new IllegalStateException("common-grams.txt is missing from the engine jar");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        StringBuilder gram = new StringBuilder(N);
        for (String unit : line.substring(0, line.indexOf('\t')).split(" ")) {
          gram.append((char) Integer.parseInt(unit, 16));
        }
        if (gram.length() != N) {
          throw new IllegalStateException("common-grams.txt: not a trigram: " + line);
        }
        out.add(gram.toString());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Set.copyOf(out);
  }

  private static Set<String> bigramsOf(Set<String> trigrams) {
    Set<String> out = new HashSet<>();
    for (String t : trigrams) {
      out.add(t.substring(0, 2));
      out.add(t.substring(1));
    }
    return Set.copyOf(out);
  }

  private static boolean hasSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The grams a file must contain for {@code query} to match it. Case-insensitive: the grams of the
   * lower-cased query (the scanner's needle). Case-sensitive: the grams of the lower-cased runs of
   * characters whose lower-casing is context-free and one-to-one (so their lower-case form is a
   * substring of the lower-cased line wherever they occur). Grams containing U+FFFD are dropped
   * (decoders may disagree on how many replacement characters bad bytes give), and so are bigrams
   * holding half a surrogate pair. Only the longest available gram size is used: trigrams when the
   * query has them, else bigrams; a query with neither (one unit) has no grams: no filter. Common
   * trigrams ({@link #isCommon}) are left out, and so are the bigrams inside them.
   */
  public static List<String> queryGrams(String query, boolean caseSensitive) {
    List<String> runs = new ArrayList<>();
    if (!caseSensitive) {
      runs.add(query.toLowerCase(Locale.ROOT));
    } else {
      StringBuilder run = new StringBuilder();
      for (int i = 0; i < query.length(); i++) {
        char c = query.charAt(i);
        if (c == '\u0130' || c == '\u03a3' || Character.isSurrogate(c)) {
          runs.add(run.toString());
          run.setLength(0);
        } else {
          run.append(c);
        }
      }
      runs.add(run.toString());
      runs.replaceAll(r -> r.toLowerCase(Locale.ROOT));
    }
    int longest = 0;
    for (String r : runs) {
      longest = Math.max(longest, Math.min(N, r.length()));
    }
    Set<String> grams = new LinkedHashSet<>();
    if (longest < 2) {
      return List.of();
    }
    for (String r : runs) {
      for (int i = 0; i + longest <= r.length(); i++) {
        String g = r.substring(i, i + longest);
        boolean common = longest == N ? COMMON.contains(g) : COMMON_BIGRAMS.contains(g);
        if (!common && g.indexOf('\ufffd') < 0 && (longest == N || !hasSurrogate(g))) {
          grams.add(g);
        }
      }
    }
    return new ArrayList<>(grams);
  }
}
