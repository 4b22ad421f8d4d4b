package dev.prismindex.tool;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The one sanitiser for text that people or models read as lines: the {@code repo_search} and
 * {@link IndexHitText} renderings, and every string the CLI prints in human mode. Text is escaped so
 * that it can never start a new line, drive a terminal (escape sequences) or read differently from
 * what it is (bidirectional overrides, invisible characters); {@link #line} also cuts it to a
 * bounded length.
 *
 * <p>Escaped: LF as {@code \n}, CR as {@code \r}, and as {@code \}{@code uXXXX} (four upper-case hex
 * digits per UTF-16 unit): every other C0 control (TAB only by {@link #escapeField}, which writes
 * it as {@code \t}), DEL, the C1 controls (U+0080..U+009F, which include NEL and CSI), the line and
 * paragraph separators U+2028 and U+2029, the bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069) and invisible format characters that can hide text (U+180E,
 * U+200B, U+2060..U+2064, U+206A..U+206F, U+FEFF, the interlinear annotation characters
 * U+FFF9..U+FFFB, and the tag characters U+E0000..U+E007F, written as the escapes of their two
 * surrogates). Joiners (U+200C, U+200D) stay: emoji and several scripts need them.
 * Nothing else changes: backslashes are not doubled, so the escaping keeps the line structure honest
 * but is not reversible (exact text is in JSON output and metadata). Escaping is idempotent: an
 * escaped text escapes to itself.
 */
public final class SafeText {

  /** Text longer than this many UTF-16 units is cut. */
  static final int MAX_LINE_UNITS = 500;

  /** Appended to a cut text. */
  static final String TRUNCATED_SUFFIX = "... [truncated]";

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private SafeText() {}

  /**
   * Cuts {@code text} to {@value #MAX_LINE_UNITS} UTF-16 units (one fewer if the cut would split a
   * surrogate pair) with {@value #TRUNCATED_SUFFIX}, then escapes it. The cut counts the original
   * text, so escapes never make a text count as longer.
   */
  static String line(String text) {
    if (text.length() <= MAX_LINE_UNITS) {
      return escape(text);
    }
    int end = MAX_LINE_UNITS;
    if (Character.isHighSurrogate(text.charAt(end - 1))
        && Character.isLowSurrogate(text.charAt(end))) {
      end--;
    }
    return escape(text.substring(0, end)) + TRUNCATED_SUFFIX;
  }

  /**
   * Escapes every character that could break, disguise or drive a line (see the class comment);
   * TAB stays, for a line of file content.
   *
   * @param text any text
   * @return {@code text} itself when nothing needs escaping
   */
  public static String escape(String text) {
    return escape(text, false);
  }

  /**
   * As {@link #escape}, and TAB too (as {@code \t}): for names and values printed as one field
   * (paths, symbols, status fields, messages), where a tab would be mistaken for a separator.
   *
   * @param text any text
   * @return {@code text} itself when nothing needs escaping
   */
  public static String escapeField(String text) {
    return escape(text, true);
  }

  private static String escape(String text, boolean tab) {
    int n = text.length();
    int first = 0;
    while (first < n && !needsEscape(text, first, tab)) {
      first++;
    }
    if (first == n) {
      return text;
    }
    StringBuilder out = new StringBuilder(n + 16).append(text, 0, first);
    for (int i = first; i < n; i++) {
      char c = text.charAt(i);
      if (!needsEscape(text, i, tab)) {
        out.append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else {
        hex(out, c);
        if (Character.isHighSurrogate(c)) {
          hex(out, text.charAt(++i));
        }
      }
    }
    return out.toString();
  }

  private static void hex(StringBuilder out, char c) {
    out.append("\\u")
        .append(HEX[(c >> 12) & 0xF])
        .append(HEX[(c >> 8) & 0xF])
        .append(HEX[(c >> 4) & 0xF])
        .append(HEX[c & 0xF]);
  }

  /** Whether the character at {@code i} (with its low surrogate, for a tag character) is escaped. */
  private static boolean needsEscape(String text, int i, boolean tab) {
    char c = text.charAt(i);
    if (c == '\t') {
      return tab;
    }
    if (c == 0xDB40) { // the high surrogate of U+E0000..U+E03FF; tags are U+E0000..U+E007F
      return i + 1 < text.length() && text.charAt(i + 1) >= 0xDC00 && text.charAt(i + 1) <= 0xDC7F;
    }
    return needsEscape(c);
  }

  private static boolean needsEscape(char c) {
    if (c < 0x20) {
      return true;
    }
    if (c < 0x7F) {
      return false;
    }
    return c <= 0x9F
        || c == 0x061C
        || c == 0x180E
        || c == 0x200B
        || c == 0x200E
        || c == 0x200F
        || c == 0x2028
        || c == 0x2029
        || (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2060 && c <= 0x2064)
        || (c >= 0x2066 && c <= 0x206F)
        || c == 0xFEFF
        || (c >= 0xFFF9 && c <= 0xFFFB);
  }

  /**
   * A score with exactly three decimals, rounding the exact binary value half up (as JavaScript's
   * {@code toFixed(3)} does): 0.75 gives {@code 0.750}, 1.0005 gives {@code 1.000} (its double is
   * just below), 0.0005 gives {@code 0.001} (its double is just above). Non-finite values, which a
   * validated index never produces, render as JavaScript would: {@code NaN}, {@code Infinity},
   * {@code -Infinity}.
   */
  static String score(double score) {
    if (Double.isNaN(score)) {
      return "NaN";
    }
    if (Double.isInfinite(score)) {
      return score > 0 ? "Infinity" : "-Infinity";
    }
    return new BigDecimal(score).setScale(3, RoundingMode.HALF_UP).toPlainString();
  }
}
