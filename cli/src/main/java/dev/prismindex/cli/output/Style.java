package dev.prismindex.cli.output;

/** ANSI styling for human output, or none (piped, {@code NO_COLOR}). */
public final class Style {
  static final Style PLAIN = new Style(false);
  static final Style ANSI = new Style(true);

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

  String match(String s) {
    return wrap("1;31", s);
  }

  String path(String s) {
    return wrap("35", s);
  }

  String line(String s) {
    return wrap("32", s);
  }

  String score(String s) {
    return wrap("33", s);
  }

  String dim(String s) {
    return wrap("2", s);
  }

  String bold(String s) {
    return wrap("1", s);
  }

  String warn(String s) {
    return wrap("33", s);
  }

  private String wrap(String code, String s) {
    return on ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
  }
}
