package dev.prismindex.engine.internal.run;

import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexProgress.Phase;
import dev.prismindex.engine.IndexProgressListener;
import dev.prismindex.internal.Throttle;
import java.util.concurrent.TimeUnit;

/**
 * Serialises and throttles the progress callbacks of one run ({@link IndexProgressListener}): a
 * phase's first snapshot and the last of the embedding always, else one per 100 ms ({@link
 * Throttle}).
 */
final class RunProgress {

  private static final long THROTTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final IndexProgressListener listener;
  private final long startNanos;
  private Phase phase = Phase.WALKING;
  private int filesDone;
  private int filesTotal;
  private long embedded;
  private long toEmbed;
  private final Throttle throttle = new Throttle(THROTTLE_NANOS);

  public RunProgress(IndexProgressListener listener, long startNanos) {
    this.listener = listener;
    this.startNanos = startNanos;
  }

  public synchronized void phase(Phase next) {
    phase = next;
    emit(true);
  }

  public synchronized void filesTotal(int total) {
    filesTotal = total;
  }

  public synchronized void fileDone(int done) {
    filesDone = Math.max(filesDone, done);
    emit(false);
  }

  public synchronized void embedded(long done, long total) {
    embedded = done;
    toEmbed = total;
    emit(done == total);
  }

  private void emit(boolean force) {
    if (listener == IndexProgressListener.NONE) {
      return;
    }
    long now = System.nanoTime();
    if (!throttle.pass(now, force)) {
      return;
    }
    listener.onProgress(new IndexProgress(phase, filesDone, filesTotal, embedded, toEmbed,
        TimeUnit.NANOSECONDS.toMillis(now - startNanos)));
  }
}
