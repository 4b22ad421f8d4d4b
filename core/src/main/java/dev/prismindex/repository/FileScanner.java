package dev.prismindex.repository;

import dev.prismindex.repository.LineMatcher.IntPairs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scans files one after another for a {@link LiteralPattern} or a {@link RegexPattern} ({@link
 * LineMatcher}), sharing one scan budget, and collects the matches (the per-file part of the
 * reference's {@code searchLocal}) or hands each to a {@link SearchSink} as soon as its
 * after-context is complete. A regex reads lines as ripgrep does ({@link RegexPattern#forEachLine}:
 * only LF ends a line; bytes that are not UTF-8 are marked), and its matches and context show the
 * marks as U+FFFD.
 *
 * <p>Per file: the abort signal and deadline are checked; the file counts as scanned; it is opened
 * without following a link; a file larger than {@code maxFileBytes} is skipped as oversize (equal is
 * allowed); a NUL byte in the first 8 192 bytes skips it as binary; otherwise it is read in 64 KiB
 * chunks and split into lines by {@link LineSplitter}, every line searched however long (a line is
 * at most the file, so {@code maxFileBytes} bounds the buffer). Before each chunk an exhausted scan
 * budget stops the search ({@link TruncationReason#SCAN}). Every line is charged to the budget; a
 * line that drives it negative stops the search unmatched. Lines feed the after-context of earlier
 * matches, are matched, and enter the before-context ring. What a result holds of a line is bounded
 * by {@code maxLineBytes}: a longer matching line is reported as {@link LiteralPattern#window}
 * around the match (its column stays the column in the whole line), a longer context line as its
 * first {@code maxLineBytes} bytes.
 * A match found when {@code maxMatches} matches are already held stops the search with {@link
 * TruncationReason#MATCHES}: that is only reported when a further match really exists. Streaming
 * without a cap, only the walk, scan and time limits stop it; a sink that declines a match stops it
 * with {@link TruncationReason#ABORT}.
 *
 * <p>A file that cannot be opened or read is counted in {@code scannedFiles} and as unreadable, and
 * otherwise skipped (logged at debug level); matches already found in it are kept.
 */
final class FileScanner {

  static final int CHUNK_BYTES = 64 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(FileScanner.class);

  private final LineMatcher matcher;
  private final RepositoryLimits limits;
  /** The match cap, or -1 for none (streaming without a limit). */
  private final int maxMatches;
  private final int context;
  private final OperationGuard guard;
  private final @Nullable SearchSink sink;
  private final byte[] chunk = new byte[CHUNK_BYTES];
  private final IntPairs spans = new IntPairs();

  private final List<PendingMatch> matches = new ArrayList<>();
  private long found;
  private long scanRemaining;
  private long scannedBytes;
  private long scannedFiles;
  private long skippedBinary;
  private long skippedOversize;
  private long skippedUnreadable;
  private @Nullable TruncationReason stoppedBy;

  /** A match whose after-context may still grow. */
  private static final class PendingMatch {
    final String path;
    final int line;
    final int column;
    final String text;
    final List<String> before;
    final List<String> after = new ArrayList<>();
    final List<MatchSpan> spans;

    PendingMatch(String path, int line, int column, String text, List<String> before,
        List<MatchSpan> spans) {
      this.path = path;
      this.line = line;
      this.column = column;
      this.text = text;
      this.before = before;
      this.spans = spans;
    }

    RepositorySearchMatch toMatch() {
      return new RepositorySearchMatch(path, line, line, column, text, before, after, null);
    }
  }

  /**
   * A scanner that collects at most {@code maxMatches} matches ({@code sink} null), or hands them
   * to {@code sink} as they are complete, capped at {@code maxMatches} unless it is -1.
   */
  FileScanner(LineMatcher matcher, RepositoryLimits limits, int maxMatches, int context,
      OperationGuard guard, @Nullable SearchSink sink) {
    this.matcher = matcher;
    this.limits = limits;
    this.maxMatches = maxMatches;
    this.context = context;
    this.guard = guard;
    this.sink = sink;
    this.scanRemaining = limits.maxScanBytes();
  }

  /**
   * Scans one file. Returns {@code false} once the search must stop ({@link #stoppedBy()} says why).
   *
   * @throws OperationStopped when aborted or past the deadline
   */
  boolean scan(String path, Path file) {
    if (stoppedBy != null) {
      return false;
    }
    guard.check();
    scannedFiles++;
    try (SeekableByteChannel channel =
        Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      if (channel.size() > limits.maxFileBytes()) {
        skippedOversize++;
        return true;
      }
      scanContent(path, channel);
    } catch (IOException e) {
      skippedUnreadable++;
      LOG.debug("skipping unreadable file {}: {}", path, e.toString());
    }
    return stoppedBy == null;
  }

  private void scanContent(String path, SeekableByteChannel channel) throws IOException {
    long fileRemaining = limits.maxFileBytes();
    int filled = fill(channel, fileRemaining);
    int sniff = Math.min(filled, RepositoryLimits.DEFAULT_BINARY_SNIFF_BYTES);
    for (int i = 0; i < sniff; i++) {
      if (chunk[i] == 0) {
        skippedBinary++;
        return;
      }
    }
    RegexPattern.Matcher whole = matcher.whole();
    if (whole != null && context == 0) {
      byte[] content = readRest(channel, filled, fileRemaining);
      if (scanWhole(path, content, whole)) {
        return;
      }
      // Not enough scan budget for the whole file: line by line, to stop where it runs out.
      FileLines lines = new FileLines(path);
      LineSplitter splitter =
          new LineSplitter(LineSplitter.UNBOUNDED, RegexPattern.NOT_UTF8, true, lines);
      if (splitter.feed(content, 0, content.length)) {
        splitter.finish();
      }
      return;
    }
    FileLines lines = new FileLines(path);
    LineSplitter splitter = matcher.regexLines()
        ? new LineSplitter(LineSplitter.UNBOUNDED, RegexPattern.NOT_UTF8, true, lines)
        : new LineSplitter(LineSplitter.UNBOUNDED, lines);
    try {
      splitAll(channel, splitter, filled, fileRemaining);
    } finally {
      lines.flush();
    }
  }

  private void splitAll(SeekableByteChannel channel, LineSplitter splitter, int filled,
      long fileRemaining) throws IOException {
    while (filled > 0) {
      if (scanRemaining <= 0) {
        stoppedBy = TruncationReason.SCAN;
        return;
      }
      if (!splitter.feed(chunk, 0, filled)) {
        return;
      }
      fileRemaining -= filled;
      filled = fill(channel, fileRemaining);
    }
    splitter.finish();
  }

  /** The file's bytes: the {@code filled} already in the chunk, then the rest, up to {@code cap}. */
  private byte[] readRest(SeekableByteChannel channel, int filled, long cap) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream(
        (int) Math.min(Integer.MAX_VALUE - 16, Math.max(filled, channel.size())));
    all.write(chunk, 0, filled);
    long remaining = cap - filled;
    while (remaining > 0) {
      int n = fill(channel, remaining);
      if (n == 0) {
        break;
      }
      all.write(chunk, 0, n);
      remaining -= n;
    }
    return all.toByteArray();
  }

  /**
   * A regex over a whole file without context lines: its lines are charged to the budget at once
   * (every byte but the LFs) and only the lines with a match are decoded and reported, found by
   * {@link RegexPattern.Matcher#forEachMatchingLine}. False, charging nothing, when the budget
   * cannot cover the file.
   */
  private boolean scanWhole(String path, byte[] content, RegexPattern.Matcher whole) {
    long lineBytes = content.length
        - LineFeeds.count(content, 0, content.length);
    if (scanRemaining - lineBytes < 0) {
      return false;
    }
    scanRemaining -= lineBytes;
    scannedBytes += lineBytes;
    guard.check();
    int maxText = limits.maxLineBytes();
    whole.forEachMatchingLine(content, (line, text, found, count) -> {
      String readable = RegexPattern.readable(text);
      if (maxMatches >= 0 && this.found >= maxMatches) {
        stoppedBy = TruncationReason.MATCHES;
        return false;
      }
      this.found++;
      List<MatchSpan> list = new ArrayList<>(count / 2);
      for (int i = 0; i < count; i += 2) {
        list.add(MatchSpan.in(readable, found[i], found[i + 1]));
      }
      int column = list.get(0).column();
      PendingMatch match = new PendingMatch(path, line, column,
          LiteralPattern.window(readable, column, maxText), List.of(), list);
      if (sink == null) {
        matches.add(match);
      }
      emit(match);
      return stoppedBy == null;
    });
    return true;
  }

  /** Reads until the chunk is full, the file ends, or {@code cap} bytes were read. */
  private int fill(SeekableByteChannel channel, long cap) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, Math.max(0, cap)));
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        break;
      }
    }
    return buffer.position();
  }

  /** The per-line logic of one file: budget, after-context, match, before-context. */
  private final class FileLines implements LiteralPattern.LineVisitor {
    private final String path;
    private final ArrayDeque<String> recent = new ArrayDeque<>();
    private final ArrayDeque<PendingMatch> needAfter = new ArrayDeque<>();

    FileLines(String path) {
      this.path = path;
    }

    @Override
    public boolean visit(int line, @Nullable String text, long bytes) {
      guard.check();
      scannedBytes += bytes;
      scanRemaining -= bytes;
      if (scanRemaining < 0) {
        stoppedBy = TruncationReason.SCAN;
        return false;
      }
      int maxText = limits.maxLineBytes();
      String readable = matcher.regexLines() ? RegexPattern.readable(text) : text;
      String shown = context == 0 ? readable : LiteralPattern.window(readable, 0, maxText);
      for (Iterator<PendingMatch> it = needAfter.iterator(); it.hasNext(); ) {
        PendingMatch pending = it.next();
        pending.after.add(shown);
        if (pending.after.size() >= context) {
          it.remove();
          emit(pending);
        }
      }
      if (stoppedBy != null) {
        return false;
      }
      spans.size = 0;
      matcher.match(text, spans);
      if (!spans.isEmpty()) {
        if (maxMatches >= 0 && found >= maxMatches) {
          stoppedBy = TruncationReason.MATCHES;
          return false;
        }
        found++;
        List<MatchSpan> list = new ArrayList<>(spans.size / 2);
        for (int i = 0; i < spans.size; i += 2) {
          list.add(MatchSpan.in(readable, spans.values[i], spans.values[i + 1]));
        }
        int column = spans.values[0] + 1;
        PendingMatch match = new PendingMatch(path, line, column,
            LiteralPattern.window(readable, column, maxText), List.copyOf(recent), list);
        if (sink == null) {
          matches.add(match);
        }
        if (context > 0) {
          needAfter.add(match);
        } else {
          emit(match);
          if (stoppedBy != null) {
            return false;
          }
        }
      }
      if (context > 0) {
        if (recent.size() == context) {
          recent.removeFirst();
        }
        recent.addLast(shown);
      }
      return true;
    }

    /** Hands the matches still waiting for after-context to the sink (the file has ended). */
    void flush() {
      while (!needAfter.isEmpty() && stoppedBy != TruncationReason.ABORT) {
        emit(needAfter.removeFirst());
      }
      needAfter.clear();
    }
  }

  /** Hands a complete match to the sink, if there is one; a refusal stops the search. */
  private void emit(PendingMatch match) {
    if (sink != null && stoppedBy != TruncationReason.ABORT
        && !sink.accept(match.toMatch(), match.spans)) {
      stoppedBy = TruncationReason.ABORT;
    }
  }

  /** Why the scan stopped, or {@code null} while it may continue. */
  @Nullable TruncationReason stoppedBy() {
    return stoppedBy;
  }

  List<RepositorySearchMatch> matches() {
    List<RepositorySearchMatch> out = new ArrayList<>(matches.size());
    for (PendingMatch match : matches) {
      out.add(match.toMatch());
    }
    return out;
  }

  long scannedBytes() {
    return scannedBytes;
  }

  long scannedFiles() {
    return scannedFiles;
  }

  long skippedBinary() {
    return skippedBinary;
  }

  long skippedOversize() {
    return skippedOversize;
  }

  long skippedUnreadable() {
    return skippedUnreadable;
  }
}
