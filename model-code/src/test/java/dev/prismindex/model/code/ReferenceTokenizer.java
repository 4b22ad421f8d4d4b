package dev.prismindex.model.code;

import java.util.function.Consumer;

/**
 * The tokenizer as it was before it cut words without a string per token (commit 4a97356),
 * verbatim: the reference {@link EmbeddingPinTest} holds the tokenizer and the model to.
 */
final class ReferenceTokenizer {

  private ReferenceTokenizer() {}

  static int tokens(String text, int max, Consumer<String> sink) {
    int n = text.length();
    int count = 0;
    StringBuilder word = new StringBuilder(16);
    for (int i = 0; i < n && count < max; ) {
      char c = text.charAt(i);
      if (!inRun(c)) {
        i++;
        continue;
      }
      int end = i + 1;
      while (end < n && inRun(text.charAt(end))) {
        end++;
      }
      count += words(text, i, end, word, sink, max - count);
      i = end;
    }
    return count;
  }

  private static boolean inRun(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  /** Splits the run {@code s[from, to)} into words and passes the kept ones to the sink. */
  private static int words(String s, int from, int to, StringBuilder word, Consumer<String> sink,
      int max) {
    int count = 0;
    word.setLength(0);
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c == '_' || c == '$') {
        count += emit(word, sink, max - count);
        continue;
      }
      if (word.length() > 0 && boundary(s, i, to)) {
        count += emit(word, sink, max - count);
      }
      word.append(c);
    }
    count += emit(word, sink, max - count);
    return count;
  }

  /** Whether a new word starts at {@code i}, a character inside a word of the run ending at to. */
  private static boolean boundary(String s, int i, int to) {
    char p = s.charAt(i - 1);
    char c = s.charAt(i);
    if (Character.isDigit(p) != Character.isDigit(c)) {
      return true;
    }
    return Character.isLowerCase(p) && Character.isUpperCase(c)
        || Character.isUpperCase(p) && Character.isUpperCase(c) && i + 1 < to
        && Character.isLowerCase(s.charAt(i + 1));
  }

  private static int emit(StringBuilder word, Consumer<String> sink, int max) {
    if (word.length() == 0) {
      return 0;
    }
    String w = word.toString();
    word.setLength(0);
    if (max <= 0) {
      return 0;
    }
    boolean digits = Character.isDigit(w.charAt(0));
    if (digits ? w.length() > CodeTokenizer.MAX_DIGITS
        : w.length() < 2 || w.length() > CodeTokenizer.MAX_WORD) {
      return 0;
    }
    sink.accept(digits ? w : stem(lower(w)));
    return 1;
  }

  /** {@code w} lower-cased, character by character (the same on every locale). */
  private static String lower(String w) {
    for (int i = 0; i < w.length(); i++) {
      char c = w.charAt(i);
      if (Character.toLowerCase(c) != c) {
        char[] cs = w.toCharArray();
        for (int k = i; k < cs.length; k++) {
          cs[k] = Character.toLowerCase(cs[k]);
        }
        return new String(cs);
      }
    }
    return w;
  }

  /**
   * The light stem of a lower-case word. Words under four characters and words holding anything
   * but ASCII letters are kept as they are; otherwise, in order:
   *
   * <ol>
   *   <li>plural: {@code -ies} and {@code -ied} become {@code -y} ({@code entries}: entry);
   *       {@code -sses}, {@code -xes}, {@code -ches}, {@code -shes}, {@code -zes} lose {@code es}
   *       ({@code classes}: class); another final {@code s}, not after {@code s}, {@code u} or
   *       {@code i}, is removed ({@code values}: value);
   *   <li>{@code -ing}, then {@code -ed}, is removed when at least three letters with a vowel are
   *       left, and a doubled final consonant other than l, s, z is then undoubled when four letters
   *       or more are left ({@code running}: run, {@code stopped}: stop, {@code added}: add);
   *   <li>a final {@code e} is removed when at least three letters are left ({@code value}: valu).
   * </ol>
   */
  private static String stem(String w) {
    int n = w.length();
    if (n < 4) {
      return w;
    }
    for (int i = 0; i < n; i++) {
      char c = w.charAt(i);
      if (c < 'a' || c > 'z') {
        return w;
      }
    }
    String s = w;
    if (n > 4 && (s.endsWith("ies") || s.endsWith("ied"))) {
      s = s.substring(0, n - 3) + "y";
    } else if (s.endsWith("sses") || s.endsWith("xes") || s.endsWith("ches") || s.endsWith("shes")
        || s.endsWith("zes")) {
      s = s.substring(0, n - 2);
    } else if (s.endsWith("s") && !s.endsWith("ss") && !s.endsWith("us") && !s.endsWith("is")) {
      s = s.substring(0, n - 1);
    }
    String cut = null;
    if (s.endsWith("ing")) {
      cut = s.substring(0, s.length() - 3);
    } else if (s.endsWith("ed")) {
      cut = s.substring(0, s.length() - 2);
    }
    if (cut != null && cut.length() >= 3 && hasVowel(cut)) {
      int k = cut.length();
      char last = cut.charAt(k - 1);
      if (k >= 4 && last == cut.charAt(k - 2) && !isVowel(last) && last != 'l' && last != 's'
          && last != 'z') {
        cut = cut.substring(0, k - 1);
      }
      s = cut;
    }
    if (s.length() >= 4 && s.endsWith("e")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  private static boolean hasVowel(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (isVowel(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isVowel(char c) {
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y';
  }
}
