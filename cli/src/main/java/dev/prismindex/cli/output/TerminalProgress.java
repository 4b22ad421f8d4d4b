package dev.prismindex.cli.output;

import dev.prismindex.engine.IndexProgress;
import dev.prismindex.tool.SafeText;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One self-overwriting status line on a terminal's stderr, redrawn five times a second: phase,
 * files, chunks embedded, rate and ETA, from the run's latest {@link IndexProgress}. Only used
 * when stderr is a terminal.
 */
public final class TerminalProgress implements Progress {

  private static final long REDRAW_MS = 200;

  private final PrintStream err;
  private final LongSupplier clock;
  private final long startedNanos;
  private final @Nullable ScheduledExecutorService ticker;
  /** The run's latest snapshot, null before the first. */
  private volatile @Nullable IndexProgress last;
  private int lastWidth;

  public TerminalProgress(PrintStream err) {
    this(err, System::nanoTime, true);
  }

  public TerminalProgress(PrintStream err, LongSupplier clock, boolean tick) {
    this.err = err;
    this.clock = clock;
    this.startedNanos = clock.getAsLong();
    if (tick) {
      this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "prism-index-progress");
        t.setDaemon(true);
        return t;
      });
      ticker.scheduleAtFixedRate(this::draw, REDRAW_MS, REDRAW_MS, TimeUnit.MILLISECONDS);
    } else {
      this.ticker = null;
    }
  }

  private volatile long chunksStartedNanos;

  @Override
  public void onProgress(IndexProgress p) {
    if (p.phase() == IndexProgress.Phase.EMBEDDING && chunksStartedNanos == 0) {
      chunksStartedNanos = clock.getAsLong();
    }
    last = p;
  }

  /** The current status line (without the carriage return). */
  String line() {
    double elapsed = Math.max(1e-3, (clock.getAsLong() - startedNanos) / 1e9);
    IndexProgress p = last;
    if (p == null) {
      return "starting  (" + duration((long) elapsed) + ')';
    }
    long files = p.filesDone();
    long filesTotal = p.filesTotal();
    long chunks = p.chunksEmbedded();
    long chunksTotal = p.chunksToEmbed();
    StringBuilder b = new StringBuilder(p.phase().name().toLowerCase(Locale.ROOT));
    if (filesTotal > 0 || files > 0) {
      b.append("  ").append(files).append(filesTotal > 0 ? "/" + filesTotal : "").append(" files");
    }
    if (chunksTotal > 0 || chunks > 0) {
      b.append("  ").append(chunks).append(chunksTotal > 0 ? "/" + chunksTotal : "")
          .append(" chunks embedded");
    }
    boolean embedding = chunksTotal > 0;
    long done = embedding ? chunks : files;
    long total = embedding ? chunksTotal : filesTotal;
    String unit = embedding ? "chunks" : "files";
    double span = embedding && chunksStartedNanos != 0
        ? Math.max(1e-3, (clock.getAsLong() - chunksStartedNanos) / 1e9) : elapsed;
    if (done > 0) {
      double rate = done / span;
      b.append(String.format(Locale.ROOT, "  %.1f %s/s", rate, unit));
      if (total > done && rate > 0) {
        b.append("  ETA ").append(duration((long) ((total - done) / rate)));
      }
    }
    b.append("  (").append(duration((long) elapsed)).append(')');
    return b.toString();
  }

  private synchronized void draw() {
    String text = SafeText.escapeField(line());
    int pad = Math.max(0, lastWidth - text.length());
    err.print("\r" + text + " ".repeat(pad));
    err.flush();
    lastWidth = text.length();
  }

  static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m" + String.format(Locale.ROOT, "%02d", seconds % 60) + "s";
    }
    return seconds / 3600 + "h" + String.format(Locale.ROOT, "%02d", seconds % 3600 / 60) + "m";
  }

  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    if (lastWidth > 0) {
      err.print("\r" + " ".repeat(lastWidth) + "\r");
      err.flush();
      lastWidth = 0;
    }
  }
}
