package dev.prismindex.cli.output;

import static dev.prismindex.cli.output.Style.Role.MATCH;

import dev.prismindex.engine.Hit;
import dev.prismindex.repository.MatchSpan;
import dev.prismindex.tool.SafeText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Appends a hit's text to a human {@link Line}, escaped, a tab shown as a space, with what matched
 * marked in the match style when {@link Style#on()} is true (colour only): a hit's own match spans
 * ({@link #matches}), or the query's words ({@link #query}).
 */
final class Marks {

  private Marks() {}

  /** {@code text} with the texts of the hit's matches marked in it. */
  static Line matches(Style style, Line line, String text, Hit h) {
    String shown = SafeText.escape(text.replace('\t', ' '));
    if (!style.on() || h.matches().isEmpty()) {
      return line.escaped(shown); // escaped, and no tab left: escapeField would keep it as it is
    }
    boolean[] marked = new boolean[shown.length()];
    for (MatchSpan span : h.matches()) {
      String needle = SafeText.escape(span.text().replace('\t', ' '));
      if (needle.isEmpty()) {
        continue;
      }
      for (int i = shown.indexOf(needle); i >= 0; i = shown.indexOf(needle, i + 1)) {
        Arrays.fill(marked, i, Math.min(marked.length, i + needle.length()), true);
      }
    }
    return painted(line, shown, marked);
  }

  /**
   * {@code snippet} with the query marked in it: the whole query in literal mode, else each query
   * word of two or more letters or digits, case-insensitively. Marks are found in the escaped
   * snippet, with the needles escaped alike.
   */
  static Line query(Style style, Line line, String snippet, String query, String mode) {
    String shown = SafeText.escape(snippet.replace('\t', ' '));
    if (!style.on()) {
      return line.text(shown);
    }
    List<String> needles = new ArrayList<>();
    if (mode.equals("literal")) {
      needles.add(SafeText.escape(query.replace('\t', ' ')));
    } else {
      for (String word : query.split("[^\\p{L}\\p{N}_]+")) {
        if (word.length() >= 2) {
          needles.add(word);
        }
      }
    }
    String lower = shown.toLowerCase(Locale.ROOT);
    boolean[] marked = new boolean[shown.length()];
    for (String needle : needles) {
      String n = needle.toLowerCase(Locale.ROOT);
      if (n.isEmpty() || n.length() != needle.length()) {
        continue;
      }
      for (int i = lower.indexOf(n); i >= 0; i = lower.indexOf(n, i + 1)) {
        Arrays.fill(marked, i, Math.min(marked.length, i + n.length()), true);
      }
    }
    return painted(line, shown, marked);
  }

  /** Appends {@code shown} to {@code line}, its {@code marked} characters in the match style. */
  private static Line painted(Line line, String shown, boolean[] marked) {
    int i = 0;
    while (i < shown.length()) {
      int j = i;
      while (j < shown.length() && marked[j] == marked[i]) {
        j++;
      }
      String part = shown.substring(i, j);
      if (marked[i]) {
        line.text(MATCH, part);
      } else {
        line.text(part);
      }
      i = j;
    }
    return line;
  }
}
