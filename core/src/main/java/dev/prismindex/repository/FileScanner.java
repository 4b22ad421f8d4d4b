package dev.prismindex.repository;

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
 * Scans files one after another for a {@link LiteralPattern}, sharing one scan budget and one match
 * list (the per-file part of the reference's {@code searchLocal}).
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
 * TruncationReason#MATCHES}: that is only reported when a further match really exists.
 *
 * <p>A file that cannot be opened or read is counted in {@code scannedFiles} and as unreadable, and
 * otherwise skipped (logged at debug level); matches already found in it are kept.
 */
final class FileScanner {

  static final int CHUNK_BYTES = 64 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(FileScanner.class);

  private final LiteralPattern pattern;
  private final RepositoryLimits limits;
  private final int maxMatches;
  private final int context;
  private final OperationGuard guard;
  private final byte[] chunk = new byte[CHUNK_BYTES];

  private final List<PendingMatch> matches = new ArrayList<>();
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

    PendingMatch(String path, int line, int column, String text, List<String> before) {
      this.path = path;
      this.line = line;
      this.column = column;
      this.text = text;
      this.before = before;
    }

    RepositorySearchMatch toMatch() {
      return new RepositorySearchMatch(path, line, line, column, text, before, after, null);
    }
  }

  FileScanner(LiteralPattern pattern, RepositoryLimits limits, int maxMatches, int context,
      OperationGuard guard) {
    this.pattern = pattern;
    this.limits = limits;
    this.maxMatches = maxMatches;
    this.context = context;
    this.guard = guard;
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
    FileLines lines = new FileLines(path);
    LineSplitter splitter = new LineSplitter(LineSplitter.UNBOUNDED, lines);
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
      String shown = context == 0 ? text : LiteralPattern.window(text, 0, maxText);
      for (Iterator<PendingMatch> it = needAfter.iterator(); it.hasNext(); ) {
        PendingMatch pending = it.next();
        pending.after.add(shown);
        if (pending.after.size() >= context) {
          it.remove();
        }
      }
      int column = pattern.column(text);
      if (column > 0) {
        if (matches.size() >= maxMatches) {
          stoppedBy = TruncationReason.MATCHES;
          return false;
        }
        PendingMatch match = new PendingMatch(path, line, column,
            LiteralPattern.window(text, column, maxText), List.copyOf(recent));
        matches.add(match);
        if (context > 0) {
          needAfter.add(match);
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
