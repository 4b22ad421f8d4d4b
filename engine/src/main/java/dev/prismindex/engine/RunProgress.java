package dev.prismindex.engine;

import dev.prismindex.engine.IndexProgress.Phase;
import java.util.concurrent.TimeUnit;

/** Serialises and throttles the progress callbacks of one run ({@link IndexProgressListener}). */
final class RunProgress {

  private static final long THROTTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final IndexProgressListener listener;
  private final long startNanos;
  private Phase phase = Phase.WALKING;
  private int filesDone;
  private int filesTotal;
  private long embedded;
  private long toEmbed;
  private long lastEmit;
  private boolean emittedOnce;

  RunProgress(IndexProgressListener listener, long startNanos) {
    this.listener = listener;
    this.startNanos = startNanos;
  }

  synchronized void phase(Phase next) {
    phase = next;
    emit(true);
  }

  synchronized void filesTotal(int total) {
    filesTotal = total;
  }

  synchronized void fileDone(int done) {
    filesDone = Math.max(filesDone, done);
    emit(false);
  }

  synchronized void embedded(long done, long total) {
    embedded = done;
    toEmbed = total;
    emit(done == total);
  }

  private void emit(boolean force) {
    if (listener == IndexProgressListener.NONE) {
      return;
    }
    long now = System.nanoTime();
    if (!force && emittedOnce && now - lastEmit < THROTTLE_NANOS) {
      return;
    }
    lastEmit = now;
    emittedOnce = true;
    listener.onProgress(new IndexProgress(phase, filesDone, filesTotal, embedded, toEmbed,
        TimeUnit.NANOSECONDS.toMillis(now - startNanos)));
  }
}
