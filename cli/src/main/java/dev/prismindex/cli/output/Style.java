package dev.prismindex.cli.output;

/**
 * ANSI styling for human output, or none (piped, {@code NO_COLOR}): each {@link Role} a piece of
 * text plays has its colour.
 */
public final class Style {
  static final Style PLAIN = new Style(false);
  static final Style ANSI = new Style(true);

  /** What a piece of text is, with its colour: the parameters of its SGR escape sequence. */
  enum Role {
    /** The matched characters of a line. */
    MATCH("1;31"),
    PATH("35"),
    /** A line number. */
    LINE("32"),
    SCORE("33"),
    DIM("2"),
    BOLD("1"),
    WARN("33");

    private final String code;

    Role(String code) {
      this.code = code;
    }
  }

  private final boolean on;

  private Style(boolean on) {
    this.on = on;
  }

  public static Style of(boolean colour) {
    return colour ? ANSI : PLAIN;
  }

  boolean on() {
    return on;
  }

  /** {@code s} in the colour of {@code role}, or as it is when colour is off. */
  String paint(Role role, String s) {
    return on ? "\u001b[" + role.code + "m" + s + "\u001b[0m" : s;
  }
}
