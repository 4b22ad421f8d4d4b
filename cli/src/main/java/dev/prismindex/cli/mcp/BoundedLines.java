package dev.prismindex.cli.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * An input split at {@code \n}, holding at most {@code max} bytes of a line: the bytes of a longer
 * line are counted and dropped, never held in memory, so that one huge line cannot exhaust the
 * heap. A last line needs no newline; a {@code \r} before the newline is left to the reader.
 */
final class BoundedLines {
  private final InputStream in;
  private final int max;
  private final byte[] buffer = new byte[1 << 16];
  private int pos;
  private int end;
  /** The current line's bytes (its first {@link #length}); meaningless when oversize. */
  byte[] line = new byte[1 << 12];
  int length;
  /** The current line's size in bytes, even beyond the limit. */
  long size;

  BoundedLines(InputStream in, int max) {
    this.in = in;
    this.max = max;
  }

  /** Reads the next line: false at the end of the input. A last line needs no newline. */
  boolean next() throws IOException {
    length = 0;
    size = 0;
    boolean any = false;
    while (true) {
      if (pos == end) {
        int r = in.read(buffer, 0, buffer.length);
        if (r < 0) {
          return any;
        }
        pos = 0;
        end = r;
        continue;
      }
      any = true;
      int nl = pos;
      while (nl < end && buffer[nl] != '\n') {
        nl++;
      }
      int n = nl - pos;
      if (size + n <= max) {
        if (length + n > line.length) {
          line = Arrays.copyOf(line, (int) Math.min(max, Math.max(length + n,
              2L * line.length)));
        }
        System.arraycopy(buffer, pos, line, length, n);
        length += n;
      }
      size += n;
      if (nl < end) {
        pos = nl + 1;
        return true;
      }
      pos = end;
    }
  }
}
