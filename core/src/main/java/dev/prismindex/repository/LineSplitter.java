package dev.prismindex.repository;

import java.util.Arrays;

/**
 * Splits a byte stream into lines with the scanner's rules, fed chunk by chunk.
 *
 * <p>The rules (the one definition both {@link LiteralPattern#forEachLine} and the file scanner use):
 * lines end at LF (0x0A) only; one CR (0x0D) right before the LF is not part of the line, and
 * neither is one CR at the very end of the input; any other CR is ordinary content. A final segment
 * without LF is a line; a trailing LF does not start an extra empty line; empty input has no lines.
 * Line numbers are 1-based. A line whose length (without its terminator) exceeds
 * {@code maxLineBytes} is reported with {@code null} text and still numbered; other lines are
 * decoded as UTF-8 with malformed sequences replaced by U+FFFD ({@link Utf8Decoder}). With
 * {@link #UNBOUNDED} no line is skipped.
 *
 * <p>Memory is bounded by {@code maxLineBytes}: an overlong line is counted, not buffered. With
 * {@link #UNBOUNDED} the longest line is buffered, so the caller bounds its input (the scanner
 * reads at most {@code maxFileBytes} of a file).
 */
final class LineSplitter {

  private static final byte LF = 0x0A;
  private static final byte CR = 0x0D;

  /** No line is skipped (the buffer grows up to the longest line of the input). */
  static final int UNBOUNDED = Integer.MAX_VALUE - 16;

  private final int maxLineBytes;
  private final char replacement;
  private final boolean keepCr;
  private final LiteralPattern.LineVisitor visitor;
  private byte[] buffer;
  private int stored;
  private long length;
  private int lastByte = -1;
  private int lineNumber;
  private boolean stopped;

  LineSplitter(int maxLineBytes, LiteralPattern.LineVisitor visitor) {
    this(maxLineBytes, '\uFFFD', false, visitor);
  }

  /**
   * A splitter whose decoding turns each maximal ill-formed UTF-8 subsequence into
   * {@code replacement} (U+FFFD; {@link RegexPattern#NOT_UTF8} for the regex matcher), and which
   * with {@code keepCr} leaves a line's last CR in it (the regex matcher's lines, as ripgrep's:
   * only LF ends a line).
   */
  LineSplitter(int maxLineBytes, char replacement, boolean keepCr,
      LiteralPattern.LineVisitor visitor) {
    this.maxLineBytes = maxLineBytes;
    this.replacement = replacement;
    this.keepCr = keepCr;
    this.visitor = visitor;
    this.buffer = new byte[Math.min(256, maxLineBytes + 1)];
  }

  /** Feeds bytes; returns {@code false} once the visitor has asked to stop. */
  boolean feed(byte[] data, int off, int len) {
    int end = off + len;
    int segmentStart = off;
    for (int i = off; i < end && !stopped; i++) {
      if (data[i] == LF) {
        append(data, segmentStart, i - segmentStart);
        endLine();
        segmentStart = i + 1;
      }
    }
    if (!stopped && segmentStart < end) {
      append(data, segmentStart, end - segmentStart);
    }
    return !stopped;
  }

  /** Ends the input: a pending final segment becomes the last line; {@code false} if stopped. */
  boolean finish() {
    if (!stopped && length > 0) {
      endLine();
    }
    return !stopped;
  }

  private void append(byte[] data, int off, int len) {
    if (len == 0) {
      return;
    }
    int keep = (int) Math.min(len, Math.max(0, (long) maxLineBytes + 1 - stored));
    if (keep > 0) {
      if (stored + keep > buffer.length) {
        long doubled = Math.max((long) buffer.length * 2, stored + keep);
        int grown = (int) Math.min((long) maxLineBytes + 1, doubled);
        buffer = Arrays.copyOf(buffer, grown);
      }
      System.arraycopy(data, off, buffer, stored, keep);
      stored += keep;
    }
    length += len;
    lastByte = data[off + len - 1];
  }

  private void endLine() {
    long lineBytes = lastByte == CR && !keepCr ? length - 1 : length;
    lineNumber++;
    String text = lineBytes > maxLineBytes ? null
        : Utf8Decoder.decode(buffer, 0, (int) lineBytes, replacement);
    if (!visitor.visit(lineNumber, text, lineBytes)) {
      stopped = true;
    }
    stored = 0;
    length = 0;
    lastByte = -1;
  }
}
