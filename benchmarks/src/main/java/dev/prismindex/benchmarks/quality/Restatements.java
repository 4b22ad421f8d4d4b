package dev.prismindex.benchmarks.quality;

import dev.prismindex.benchmarks.quality.QuerySets.NlQuery;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which natural-language queries' sentences still stand in the corpus once their answer's doc
 * comment is blanked: in another definition's doc (an overload's, a copied one, a TypeScript
 * overload signature's), in a comment or in a message anywhere in the corpus's source. Such a
 * query is ambiguous: another place says it word for word, and the benchmark would count a hit
 * there as a miss. Compared as word sequences (runs of letters and digits, lower-cased) of the
 * source with its doc markup reduced as {@link DocSentence} reduces a query's ({@code {@code
 * Map}} and {@code Map} are one word), so punctuation and line breaks do not matter. The answer's
 * own lines, from its doc comment to its end, are not "elsewhere".
 */
final class Restatements {

  private Restatements() {}

  /** A word of a source file and its 1-based line. */
  private record Word(String text, int line) {}

  /**
   * The queries of {@code candidates} whose sentence stands in {@code sources} (path to text, the
   * corpus's source files as they are before any blanking) outside their answer.
   */
  static Set<NlQuery> ambiguous(List<NlQuery> candidates, Map<String, String> sources) {
    Map<String, List<NlQuery>> byHead = new HashMap<>();
    Map<NlQuery, List<String>> words = new HashMap<>();
    for (NlQuery q : candidates) {
      List<String> w = words(q.query()).stream().map(Word::text).toList();
      if (w.size() >= 2) {
        words.put(q, w);
        byHead.computeIfAbsent(w.get(0) + ' ' + w.get(1), k -> new ArrayList<>()).add(q);
      }
    }
    Set<NlQuery> out = new HashSet<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      List<Word> text = words(DocSentence.reduceMarkup(e.getValue()));
      for (int i = 0; i + 1 < text.size(); i++) {
        List<NlQuery> same = byHead.get(text.get(i).text() + ' ' + text.get(i + 1).text());
        if (same == null) {
          continue;
        }
        for (NlQuery q : same) {
          if (!out.contains(q) && matches(text, i, words.get(q))
              && !insideAnswer(q.target(), e.getKey(), e.getValue(), text.get(i).line())) {
            out.add(q);
          }
        }
      }
    }
    return out;
  }

  /**
   * Whether {@code sentence}'s words stand in {@code text} word for word (its markup reduced as
   * {@link #ambiguous} reduces a source file's).
   */
  static boolean standsIn(String sentence, String text) {
    List<String> query = words(sentence).stream().map(Word::text).toList();
    if (query.isEmpty()) {
      return false;
    }
    List<Word> words = words(DocSentence.reduceMarkup(text));
    for (int i = 0; i < words.size(); i++) {
      if (matches(words, i, query)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(List<Word> text, int from, List<String> query) {
    if (from + query.size() > text.size()) {
      return false;
    }
    for (int j = 0; j < query.size(); j++) {
      if (!text.get(from + j).text().equals(query.get(j))) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code line} of {@code path} lies in {@code d}, its doc comment included. */
  private static boolean insideAnswer(Definition d, String path, String text, int line) {
    if (!d.path().equals(path)) {
      return false;
    }
    int first = d.startLine();
    if (!d.docSpans().isEmpty()) {
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      int at = d.docSpans().get(0).start();
      int docLine = 1;
      for (int i = 0; i < Math.min(at, utf8.length); i++) {
        if (utf8[i] == '\n') {
          docLine++;
        }
      }
      first = Math.min(first, docLine);
    }
    return line >= first && line <= d.endLine();
  }

  /** The words of {@code s} (runs of letters and digits, lower-cased) and their lines. */
  private static List<Word> words(String s) {
    List<Word> out = new ArrayList<>();
    int line = 1;
    int i = 0;
    int n = s.length();
    while (i < n) {
      int cp = s.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        int from = i;
        while (i < n && Character.isLetterOrDigit(s.codePointAt(i))) {
          i += Character.charCount(s.codePointAt(i));
        }
        out.add(new Word(s.substring(from, i).toLowerCase(Locale.ROOT), line));
      } else {
        if (cp == '\n') {
          line++;
        }
        i += Character.charCount(cp);
      }
    }
    return out;
  }
}
