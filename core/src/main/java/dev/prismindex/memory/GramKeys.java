package dev.prismindex.memory;

import dev.prismindex.repository.LiteralPattern;
import java.util.Locale;

/**
 * Turns text into gram keys ({@link Postings#key}) with the folding that makes the index a superset
 * of {@link LiteralPattern}'s matches.
 *
 * <p><b>Folding.</b> Each line is lower-cased as a whole with {@link Locale#ROOT} (exactly as the
 * pattern lower-cases lines), then final sigma U+03C2 is mapped to U+03C3. Root lower-casing maps each
 * code point independently except capital sigma, whose result depends on its neighbours; folding both
 * sigmas to one makes the mapping context-free, so a case-sensitive query's folded form is a
 * substring of a matching line's folded form too, and one index serves both case modes.
 *
 * <p><b>Grams.</b> A line of {@code L} folded units, followed by two pad units (LF, which no line
 * contains), yields the {@code L} trigrams that start at each unit. Every substring of the line, of
 * any length, is therefore a prefix of some indexed trigram: queries of three or more units look up
 * their trigrams exactly, shorter ones look up a key range. Every line is indexed, however long,
 * since the scanner searches every line.
 *
 * <p>Lines are split with the scanner's rules: pure-ASCII content is split here (LF, a CR before LF
 * or at the end is not part of the line); any other content goes through
 * {@link LiteralPattern#forEachLine}, so malformed UTF-8 decodes exactly as the scanner decodes it.
 * Instances reuse a set between documents and are not thread-safe.
 */
final class GramKeys {

  static final char PAD = '\n';

  private final LongHashSet set = new LongHashSet(4096);

  /** The distinct gram keys of a file's content. */
  long[] content(byte[] content) {
    set.clear();
    if (isAscii(content)) {
      asciiLines(content);
    } else {
      LiteralPattern.forEachLine(content, (line, text, bytes) -> {
        addFolded(text.toLowerCase(Locale.ROOT));
        return true;
      });
    }
    return set.toArray();
  }

  /** The distinct gram keys of a path. */
  long[] path(String path) {
    set.clear();
    addFolded(path.toLowerCase(Locale.ROOT));
    return set.toArray();
  }

  private void asciiLines(byte[] content) {
    int n = content.length;
    int start = 0;
    while (start < n) {
      int lf = start;
      while (lf < n && content[lf] != '\n') {
        lf++;
      }
      int end = lf;
      if (end > start && content[end - 1] == '\r') { // before the LF, or at the very end
        end--;
      }
      if (end > start) {
        int c0 = lower(content[start]);
        int c1 = start + 1 < end ? lower(content[start + 1]) : PAD;
        for (int i = start; i < end; i++) {
          int c2 = i + 2 < end ? lower(content[i + 2]) : PAD;
          set.add(Postings.key(c0, c1, c2));
          c0 = c1;
          c1 = c2;
        }
      }
      start = lf + 1;
    }
  }

  private void addFolded(String folded) {
    int n = folded.length();
    if (n == 0) {
      return;
    }
    int c0 = fold(folded.charAt(0));
    int c1 = n > 1 ? fold(folded.charAt(1)) : PAD;
    for (int i = 0; i < n; i++) {
      int c2 = i + 2 < n ? fold(folded.charAt(i + 2)) : PAD;
      set.add(Postings.key(c0, c1, c2));
      c0 = c1;
      c1 = c2;
    }
  }

  private static int lower(byte b) {
    return b >= 'A' && b <= 'Z' ? b + 32 : b;
  }

  static char fold(char c) {
    return c == '\u03C2' ? '\u03C3' : c;
  }

  static boolean isAscii(byte[] content) {
    for (byte b : content) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The folded text a query must be found in, or an empty string when nothing can be said about
   * candidates (then every document is a candidate).
   *
   * <p>For a case-insensitive query the needle is the root-lower-cased query, a substring of the
   * lower-cased line, so folding it is exact. For a case-sensitive one, the query is a substring of
   * the line; a leading low surrogate or trailing high surrogate may be half of a pair whose
   * lower-casing differs, so they are dropped before folding.
   */
  static String foldedNeedle(String query, boolean caseSensitive) {
    String text = query;
    if (caseSensitive) {
      int start = 0;
      int end = text.length();
      if (start < end && Character.isLowSurrogate(text.charAt(start))) {
        start++;
      }
      if (end > start && Character.isHighSurrogate(text.charAt(end - 1))) {
        end--;
      }
      text = text.substring(start, end);
    }
    String lowered = text.toLowerCase(Locale.ROOT);
    StringBuilder folded = new StringBuilder(lowered.length());
    for (int i = 0; i < lowered.length(); i++) {
      folded.append(fold(lowered.charAt(i)));
    }
    return folded.toString();
  }
}
