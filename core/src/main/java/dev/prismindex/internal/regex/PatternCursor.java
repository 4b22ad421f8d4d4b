package dev.prismindex.internal.regex;

/** The reading position in a pattern: code points, verbose skipping, nesting, literals seen. */
final class PatternCursor {

  final String pattern;
  int pos;
  int depth;
  boolean anyLiteral;
  boolean anyUppercase;

  PatternCursor(String pattern) {
    this.pattern = pattern;
  }

  /** Notes a literal character, for smart case. */
  void literal(int cp) {
    anyLiteral = true;
    anyUppercase |= Character.isUpperCase(cp);
  }

  RegexSyntaxException error(int at, String what) {
    return new RegexSyntaxException(pattern, at, what);
  }

  boolean eof() {
    return pos >= pattern.length();
  }

  int peek() {
    return pattern.codePointAt(pos);
  }

  boolean lookingAt(String s) {
    return pattern.startsWith(s, pos);
  }

  int next() {
    int cp = pattern.codePointAt(pos);
    pos += Character.charCount(cp);
    return cp;
  }

  /** In verbose mode ({@code x}), skips white space and comments ({@code #} to the line's end). */
  void skipVerbose(RegexFlags flags) {
    if (!flags.verbose) {
      return;
    }
    while (!eof()) {
      int cp = peek();
      if (cp == '#') {
        while (!eof() && peek() != '\n') {
          next();
        }
      } else if (Character.isWhitespace(cp) || cp == 0x85 || cp == 0xA0 || cp == 0x2007
          || cp == 0x202F) {
        next();
      } else {
        return;
      }
    }
  }

  /** A decimal number at {@code pos} (consumed), or -1 when there is none. */
  int digits() {
    int start = pos;
    long value = 0;
    while (!eof() && peek() >= '0' && peek() <= '9') {
      value = Math.min((long) Integer.MAX_VALUE, value * 10 + (next() - '0'));
    }
    return pos == start ? -1 : (int) value;
  }
}
