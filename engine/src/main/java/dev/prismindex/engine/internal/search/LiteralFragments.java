package dev.prismindex.engine.internal.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The literal fragments of a query, which decide the line a hit reports when the query quotes code
 * (see {@link HitLocator}): a run of query words with at least one word of 4+ letters or digits that
 * has 3+ words, or 2 words one of which contains punctuation; or one code word (an identifier of 4+
 * characters with {@code _}, a digit or an inner capital, matched as a whole word, or a 4+ character
 * word with punctuation). Matched verbatim, case-insensitively, runs of white space counting as one
 * space.
 */
public final class LiteralFragments {

  private final List<Fragment> fragments;

  private LiteralFragments(List<Fragment> fragments) {
    this.fragments = fragments;
  }

  /** The fragments of {@code query}. */
  static LiteralFragments of(String query) {
    return new LiteralFragments(fragments(query));
  }

  /** Whether the query has no fragment. */
  boolean none() {
    return fragments.isEmpty();
  }

  /** A literal fragment of the query: lower-cased text, and whether it must be a whole word. */
  record Fragment(String text, boolean wholeWord) {}

  private static final int MAX_QUERY_WORDS = 16;

  /** The literal fragments of {@code query}, longest first (see the class comment). */
  static List<Fragment> fragments(String query) {
    String[] raw = query.strip().toLowerCase(Locale.ROOT).split("\\s+");
    String[] original = query.strip().split("\\s+");
    int n = Math.min(raw.length, MAX_QUERY_WORDS);
    List<String> words = new ArrayList<>(n);
    List<Fragment> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String w = trimWord(raw[i]);
      words.add(w);
      String o = trimWord(original[i]);
      if (o.length() >= 4 && o.codePoints().allMatch(LiteralFragments::identifierPart)
          && !Character.isDigit(o.codePointAt(0))
          && (o.indexOf('_') >= 0 || o.chars().anyMatch(Character::isDigit) || innerCapital(o))) {
        out.add(new Fragment(w, true));
      } else if (w.length() >= 4 && !w.codePoints().allMatch(LiteralFragments::identifierPart)
          && w.codePoints().anyMatch(Character::isLetterOrDigit)) {
        out.add(new Fragment(w, false));
      }
    }
    for (int i = 0; i < words.size(); i++) {
      String first = words.get(i);
      boolean longWord = letters(first) >= 4;
      boolean code = !first.codePoints().allMatch(Character::isLetterOrDigit);
      StringBuilder run = new StringBuilder(first);
      for (int j = i + 1; j < words.size(); j++) {
        String w = words.get(j);
        run.append(' ').append(w);
        longWord |= letters(w) >= 4;
        code |= !w.codePoints().allMatch(Character::isLetterOrDigit);
        if (longWord && (code || j - i >= 2)) {
          out.add(new Fragment(run.toString(), false));
        }
      }
    }
    out.removeIf(f -> f.text().isEmpty());
    out.sort((a, b) -> Integer.compare(b.text().length(), a.text().length()));
    return List.copyOf(out);
  }

  private static String trimWord(String w) {
    String s = w;
    int n = s.length();
    if (n >= 2 && "`'\"".indexOf(s.charAt(0)) >= 0) {
      s = s.substring(1);
    }
    n = s.length();
    if (n >= 2 && ".,:!?".indexOf(s.charAt(n - 1)) >= 0
        && Character.isLetterOrDigit(s.charAt(n - 2))) {
      s = s.substring(0, n - 1);
    }
    n = s.length();
    if (n >= 1 && "`'\"".indexOf(s.charAt(n - 1)) >= 0) {
      s = s.substring(0, n - 1);
    }
    return s;
  }

  private static int letters(String w) {
    return (int) w.codePoints().filter(Character::isLetterOrDigit).count();
  }

  private static boolean innerCapital(String w) {
    for (int i = 1; i < w.length(); i++) {
      if (Character.isUpperCase(w.charAt(i)) && Character.isLowerCase(w.charAt(i - 1))) {
        return true;
      }
    }
    return false;
  }


  /** The length of the longest fragment {@code line} holds, 0 when it holds none. */
  int longestIn(String line) {
    if (line.isBlank()) {
      return 0;
    }
    String norm = String.join(" ", line.strip().toLowerCase(Locale.ROOT).split("\\s+"));
    for (Fragment f : fragments) {
      if (f.text().length() > norm.length()) {
        continue;
      }
      if (contains(norm, f)) {
        return f.text().length();
      }
    }
    return 0;
  }

  private static boolean contains(String line, Fragment f) {
    return f.wholeWord() ? containsWord(line, f.text()) : line.contains(f.text());
  }

  /**
   * Whether {@code line} contains {@code word} as a whole word: not preceded or followed by a
   * letter, digit, {@code _} or {@code $}.
   */
  public static boolean containsWord(String line, String word) {
    for (int i = line.indexOf(word); i >= 0; i = line.indexOf(word, i + 1)) {
      int end = i + word.length();
      if ((i == 0 || !identifierPart(line.codePointBefore(i)))
          && (end == line.length() || !identifierPart(line.codePointAt(end)))) {
        return true;
      }
    }
    return false;
  }

  private static boolean identifierPart(int cp) {
    return cp == '_' || cp == '$' || Character.isLetterOrDigit(cp);
  }
}
