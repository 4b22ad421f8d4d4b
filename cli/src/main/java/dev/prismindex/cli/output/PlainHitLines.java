package dev.prismindex.cli.output;

import dev.prismindex.engine.Hit;
import dev.prismindex.tool.SafeText;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of an exact search's uncoloured hit lines, {@code path:line:column:text} (without the
 * column under {@link Layout#LINES}), written into one reused buffer: the bytes {@link
 * HumanPrinter} makes through its {@code Line} (the path escaped as a field, the text's tabs shown
 * as spaces, then the text escaped, a line feed, UTF-8), without a string or an array per line.
 * The path's bytes are made once per file; digits are written as bytes; a text of printable ASCII
 * (and tabs) is copied as it is, any other text goes through {@link SafeText#escape} and the UTF-8
 * encoder as before. Not thread-safe: one per printer.
 */
final class PlainHitLines {

  private final boolean column;
  private byte[] buf = new byte[512];
  private int size;
  /** The path and repository of the last hit, and its escaped path's bytes. */
  private String path = "";
  private String repo = "";
  private byte[] pathBytes = new byte[0];

  /** @param column whether the line has the match's column ({@code path:line:column:text}) */
  PlainHitLines(boolean column) {
    this.column = column;
  }

  /** The line of {@code h}, its text {@code text}; {@link #bytes} and {@link #size} hold it. */
  void line(Hit h, String text) {
    size = 0;
    append(pathBytes(h));
    put(':');
    digits(h.line());
    put(':');
    if (column) {
      digits(h.column());
      put(':');
    }
    int n = text.length();
    ensure(n + 1);
    int at = size;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c >= 0x20 && c < 0x7F) {
        buf[at++] = (byte) c;
      } else if (c == '\t') {
        buf[at++] = ' ';
      } else {
        // A control, DEL or a non-ASCII character: the text the general way.
        append(SafeText.escape(text.replace('\t', ' ')).getBytes(StandardCharsets.UTF_8));
        at = size;
        break;
      }
    }
    size = at;
    put('\n');
  }

  byte[] bytes() {
    return buf;
  }

  int size() {
    return size;
  }

  /** The escaped path's bytes, made again only when the file changes. */
  private byte[] pathBytes(Hit h) {
    String r = h.repo() == null ? "" : h.repo();
    if (h.path() != path || r != repo) { // the hits of one file share the path's string
      if (!h.path().equals(path) || !r.equals(repo)) {
        pathBytes = SafeText.escapeField(HumanPrinter.shown(h)).getBytes(StandardCharsets.UTF_8);
      }
      path = h.path();
      repo = r;
    }
    return pathBytes;
  }

  /** Writes {@code v} (a line or a column: never negative) in decimal. */
  private void digits(int v) {
    int len = 1;
    for (int x = v; x >= 10; x /= 10) {
      len++;
    }
    ensure(len);
    for (int i = size + len - 1; i >= size; i--) {
      buf[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    size += len;
  }

  private void put(char ascii) {
    ensure(1);
    buf[size++] = (byte) ascii;
  }

  private void append(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }
}
