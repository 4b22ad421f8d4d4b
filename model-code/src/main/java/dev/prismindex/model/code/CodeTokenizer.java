package dev.prismindex.model.code;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The tokenizer of the code-search model, for prose and code alike. It is part of the model: the
 * training pairs are mined with this class ({@code QueryPairs} in the benchmarks module), so
 * training and inference cut text the same way.
 *
 * <ol>
 *   <li>A text is cut into runs of letters and digits (with {@code _} and {@code $} inside a run);
 *       everything else separates them.
 *   <li>A run is split into words at {@code _} and {@code $}, at lower-to-upper case changes
 *       ({@code parseJson}: parse, json), before the last capital of a capital run followed by a
 *       lower-case letter ({@code XMLHttpRequest}: xml, http, request) and between letters and
 *       digits ({@code utf8}: utf, 8).
 *   <li>Words are lower-cased; single letters and digit runs longer than four are
 *       dropped; a word longer than 40 characters is dropped.
 *   <li>ASCII words of four letters or more are stemmed lightly: plurals,
 *       {@code -ed}, {@code -ing} and a final {@code e} are removed, so that {@code parse},
 *       {@code parses}, {@code parsed} and {@code parsing} all become {@code pars}.
 * </ol>
 *
 * <p>Stateless, thread-safe and deterministic. {@link #VERSION} names these rules; any change to
 * them changes it (and with it the model's id).
 */
public final class CodeTokenizer {

  /** The version of these rules, part of the model's id. */
  public static final String VERSION = "t1";

  /** Longest run of digits kept as a token. */
  static final int MAX_DIGITS = 4;

  /** Longest word kept as a token. */
  static final int MAX_WORD = 40;

  private CodeTokenizer() {}

  /** The tokens of {@code text}, in text order. */
  public static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    tokens(text, Integer.MAX_VALUE, out::add);
    return out;
  }

  /**
   * Passes the first {@code max} tokens of {@code text} to {@code sink}, in text order; returns
   * how many it passed.
   */
  public static int tokens(String text, int max, Consumer<String> sink) {
    return scan(text, max, new char[MAX_WORD], (w, n) -> sink.accept(new String(w, 0, n)));
  }

  /** Receives a token as the first {@code length} characters of {@code word} (reused after). */
  @FunctionalInterface
  interface TokenSink {
    void accept(char[] word, int length);
  }

  /**
   * The tokenizer itself, without a string per token: passes the first {@code max} tokens of
   * {@code text} to {@code sink}, each written into {@code buffer} (at least {@link #MAX_WORD}
   * characters); returns how many it passed.
   */
  static int scan(String text, int max, char[] buffer, TokenSink sink) {
    // An array (a string's charAt checks its coder on every call), copied a window at a time: the
    // code side stops after its token cap, often long before the end of the text.
    int n = text.length();
    char[] s = new char[Math.min(n, WINDOW)];
    text.getChars(0, s.length, s, 0);
    int count = 0;
    for (int i = 0; i < n && count < max; ) {
      if (i == s.length) {
        s = more(text, s);
      }
      if (!inRun(s[i])) {
        i++;
        continue;
      }
      int end = i + 1;
      while (end < n) {
        if (end == s.length) {
          s = more(text, s);
        }
        if (!inRun(s[end])) {
          break;
        }
        end++;
      }
      count += words(s, i, end, buffer, sink, max - count);
      i = end;
    }
    return count;
  }

  /** The characters {@link #scan} copies first, then twice as many each time it needs more. */
  static final int WINDOW = 2048;

  /** {@code s}, the first characters of {@code text}, with twice as many (or all). */
  private static char[] more(String text, char[] s) {
    char[] longer = Arrays.copyOf(s, Math.min(text.length(), 2 * s.length));
    text.getChars(s.length, longer.length, longer, s.length);
    return longer;
  }

  // The classes of the ASCII characters, as Character's methods give them (the tables below are
  // built from them), read from one table: the text of code is nearly all ASCII.
  private static final byte RUN = 1;
  private static final byte DIGIT = 2;
  private static final byte UPPER = 4;
  private static final byte LOWER = 8;
  private static final byte[] ASCII = new byte[128];

  static {
    for (char c = 0; c < 128; c++) {
      ASCII[c] = (byte) ((Character.isLetterOrDigit(c) || c == '_' || c == '$' ? RUN : 0)
          | (Character.isDigit(c) ? DIGIT : 0) | (Character.isUpperCase(c) ? UPPER : 0)
          | (Character.isLowerCase(c) ? LOWER : 0));
    }
  }

  private static boolean inRun(char c) {
    return c < 128 ? (ASCII[c] & RUN) != 0 : Character.isLetterOrDigit(c);
  }




  private static char toLowerCase(char c) {
    return c < 128 ? (c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c)
        : Character.toLowerCase(c);
  }

  /** The class bits of {@code c} (DIGIT, UPPER, LOWER; RUN is not asked for here). */
  private static int classOf(char c) {
    return c < 128 ? ASCII[c]
        : (Character.isDigit(c) ? DIGIT : 0) | (Character.isUpperCase(c) ? UPPER : 0)
            | (Character.isLowerCase(c) ? LOWER : 0);
  }

  /**
   * Splits the run {@code s[from, to)} into words and passes the kept ones to the sink. A new word
   * starts inside a word between a digit and a non-digit, at a lower-to-upper change, and before
   * the last capital of a capital run followed by a lower-case letter; each character's class is
   * read once.
   */
  private static int words(char[] s, int from, int to, char[] buffer, TokenSink sink, int max) {
    int count = 0;
    int start = from;
    int previous = 0;
    int current = classOf(s[from]);
    for (int i = from; i < to; i++) {
      char c = s[i];
      int next = i + 1 < to ? classOf(s[i + 1]) : 0;
      if (c == '_' || c == '$') {
        count += emit(s, start, i, buffer, sink, max - count);
        start = i + 1;
      } else if (i > start && ((previous & DIGIT) != (current & DIGIT)
          || (previous & LOWER) != 0 && (current & UPPER) != 0
          || (previous & UPPER) != 0 && (current & UPPER) != 0 && (next & LOWER) != 0)) {
        count += emit(s, start, i, buffer, sink, max - count);
        start = i;
      }
      previous = current;
      current = next;
    }
    count += emit(s, start, to, buffer, sink, max - count);
    return count;
  }

  /** Passes the word {@code s[from, to)} to the sink, lower-cased and stemmed, if it is kept. */
  private static int emit(char[] s, int from, int to, char[] buffer, TokenSink sink, int max) {
    int n = to - from;
    if (n == 0 || max <= 0) {
      return 0;
    }
    boolean digits = (classOf(s[from]) & DIGIT) != 0;
    if (digits ? n > MAX_DIGITS : n < 2 || n > MAX_WORD) {
      return 0;
    }
    if (digits) {
      System.arraycopy(s, from, buffer, 0, n);
    } else {
      // Lower-cased character by character (the same on every locale), then stemmed in place.
      for (int i = 0; i < n; i++) {
        buffer[i] = toLowerCase(s[from + i]);
      }
      n = stem(buffer, n);
    }
    sink.accept(buffer, n);
    return 1;
  }

  /** The light stem of a lower-case word ({@link #stem(char[], int)}). */
  static String stem(String w) {
    char[] cs = w.toCharArray();
    return new String(cs, 0, stem(cs, cs.length));
  }

  /**
   * Stems the lower-case word {@code w[0, n)} in place and returns the stem's length: a light
   * stem. Words under four characters and words holding anything
   * but ASCII letters are kept as they are; otherwise, in order:
   *
   * <ol>
   *   <li>plural: {@code -ies} and {@code -ied} become {@code -y} ({@code entries}: entry);
   *       {@code -sses}, {@code -xes}, {@code -ches}, {@code -shes}, {@code -zes} lose {@code es}
   *       ({@code classes}: class); another final {@code s}, not after {@code s}, {@code u} or
   *       {@code i}, is removed ({@code values}: value);
   *   <li>{@code -ing}, then {@code -ed}, is removed when at least three letters with a vowel are
   *       left, and a doubled final consonant other than l, s, z is then undoubled when four
   *       letters or more are left ({@code running}: run, {@code stopped}: stop, {@code added}:
   *       add);
   *   <li>a final {@code e} is removed when at least three letters are left ({@code value}: valu).
   * </ol>
   */
  static int stem(char[] w, int n) {
    if (n < 4) {
      return n;
    }
    for (int i = 0; i < n; i++) {
      char c = w[i];
      if (c < 'a' || c > 'z') {
        return n;
      }
    }
    int len = n;
    char last = w[n - 1];
    char second = w[n - 2];
    char third = w[n - 3];
    if (n > 4 && third == 'i' && second == 'e' && (last == 's' || last == 'd')) { // -ies, -ied
      w[n - 3] = 'y';
      len -= 2;
    } else if (last == 's' && second == 'e' && (third == 'x' || third == 'z' // -xes, -zes
        || third == 's' && w[n - 4] == 's' // -sses
        || third == 'h' && (w[n - 4] == 'c' || w[n - 4] == 's'))) { // -ches, -shes
      len -= 2;
    } else if (last == 's' && second != 's' && second != 'u' && second != 'i') {
      len -= 1;
    }
    int cut = -1;
    if (len >= 3 && w[len - 3] == 'i' && w[len - 2] == 'n' && w[len - 1] == 'g') {
      cut = len - 3;
    } else if (w[len - 2] == 'e' && w[len - 1] == 'd') {
      cut = len - 2;
    }
    if (cut >= 3 && hasVowel(w, cut)) {
      char end = w[cut - 1];
      if (cut >= 4 && end == w[cut - 2] && !isVowel(end) && end != 'l' && end != 's'
          && end != 'z') {
        cut--;
      }
      len = cut;
    }
    if (len >= 4 && w[len - 1] == 'e') {
      len--;
    }
    return len;
  }

  private static boolean hasVowel(char[] w, int n) {
    for (int i = 0; i < n; i++) {
      if (isVowel(w[i])) {
        return true;
      }
    }
    return false;
  }

  private static boolean isVowel(char c) {
    return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y';
  }
}
