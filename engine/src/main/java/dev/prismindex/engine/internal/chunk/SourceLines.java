package dev.prismindex.engine.internal.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a text, split exactly as the literal scanner splits them: on LF only, one CR right
 * before the LF removed, a final segment without LF is a line (a CR at the very end is kept), a
 * trailing LF adds no empty line, and an empty text has no lines.
 */
public final class SourceLines {

  private SourceLines() {}

  /** Splits {@code text} into lines. */
  public static List<String> split(String text) {
    List<String> lines = new ArrayList<>();
    int n = text.length();
    int start = 0;
    while (start < n) {
      int lf = text.indexOf('\n', start);
      if (lf < 0) {
        lines.add(text.substring(start));
        break;
      }
      int end = lf > start && text.charAt(lf - 1) == '\r' ? lf - 1 : lf;
      lines.add(text.substring(start, end));
      start = lf + 1;
    }
    return lines;
  }
}
