package dev.prismindex.internal.regex;

/**
 * A pattern that does not parse, or that asks for something the matcher does not do (look-around,
 * backreferences, a line terminator): the message names what and where, e.g. {@code regex parse
 * error at offset 3 of "a(b": unclosed group}.
 */
public final class RegexSyntaxException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final int offset;

  RegexSyntaxException(String pattern, int offset, String what) {
    super("regex parse error at offset " + offset + " of \"" + shown(pattern) + "\": " + what);
    this.offset = offset;
  }

  /** The UTF-16 offset in the pattern where the error was found. */
  public int offset() {
    return offset;
  }

  private static String shown(String pattern) {
    return pattern.length() <= 80 ? pattern : pattern.substring(0, 77) + "...";
  }
}
