package dev.prismindex.tool;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Text that goes into one rendered output line: cut to a bounded length and escaped so that it can
 * never start a new line.
 *
 * <p>Escaped: LF as {@code \n}, CR as {@code \r}, every other C0 control except TAB, DEL and the C1
 * controls (U+0080..U+009F, which include NEL), the line and paragraph separators U+2028 and U+2029,
 * and the bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069, which can
 * make a line read differently from what it is) as {@code \}{@code uXXXX}. Nothing else changes:
 * backslashes are not doubled, so the escaping keeps the line structure honest but is not
 * reversible; the exact text is in the result's metadata.
 */
final class SafeText {

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

  /** Escapes every character that could break or disguise a line; see the class comment. */
  static String escape(String text) {
    int n = text.length();
    int first = 0;
    while (first < n && !needsEscape(text.charAt(first))) {
      first++;
    }
    if (first == n) {
      return text;
    }
    StringBuilder out = new StringBuilder(n + 16).append(text, 0, first);
    for (int i = first; i < n; i++) {
      char c = text.charAt(i);
      if (!needsEscape(c)) {
        out.append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else {
        out.append("\\u")
            .append(HEX[(c >> 12) & 0xF])
            .append(HEX[(c >> 8) & 0xF])
            .append(HEX[(c >> 4) & 0xF])
            .append(HEX[c & 0xF]);
      }
    }
    return out.toString();
  }

  private static boolean needsEscape(char c) {
    if (c < 0x20) {
      return c != '\t';
    }
    if (c < 0x7F) {
      return false;
    }
    return c <= 0x9F
        || c == 0x2028
        || c == 0x2029
        || c == 0x061C
        || c == 0x200E
        || c == 0x200F
        || (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2066 && c <= 0x2069);
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
