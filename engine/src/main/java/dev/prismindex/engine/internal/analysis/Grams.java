package dev.prismindex.engine.internal.analysis;

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
 */
public final class Grams {

  /** The longest gram. */
  public static final int N = 3;

  private Grams() {}

  /** Adds the grams of one line (already split from the file, without its line break). */
  public static void addLineGrams(String line, Set<String> out) {
    String lower = line.toLowerCase(Locale.ROOT);
    int n = lower.length();
    if (n == 2) {
      out.add(lower);
    }
    for (int i = 0; i + N <= n; i++) {
      out.add(lower.substring(i, i + N));
    }
  }

  private static boolean hasSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /** A fresh set sized for a file. */
  public static Set<String> newSet() {
    return new HashSet<>();
  }

  /**
   * The grams a file must contain for {@code query} to match it. Case-insensitive: the grams of the
   * lower-cased query (the scanner's needle). Case-sensitive: the grams of the lower-cased runs of
   * characters whose lower-casing is context-free and one-to-one (so their lower-case form is a
   * substring of the lower-cased line wherever they occur). Grams containing U+FFFD are dropped
   * (decoders may disagree on how many replacement characters bad bytes give), and so are bigrams
   * holding half a surrogate pair. Only the longest available gram size is used: trigrams when the
   * query has them, else bigrams; a query with neither (one unit) has no grams: no filter.
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
        if (g.indexOf('\ufffd') < 0 && (longest == N || !hasSurrogate(g))) {
          grams.add(g);
        }
      }
    }
    return new ArrayList<>(grams);
  }
}
