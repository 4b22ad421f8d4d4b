package dev.prismindex.engine.internal.watch;

import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The changes seen and not yet in the index, and how far the index has caught up. Every change
 * (a path, or a whole refresh needed) is numbered; a batch taken for a refresh covers the numbers
 * up to its last, and once that refresh succeeded the index holds every change so numbered. The
 * debounce lets a batch start {@value #QUIET_MS} ms after the last change, at most {@value
 * #MAX_DELAY_MS} ms after the first one of a burst.
 *
 * <p>Not thread-safe: guarded by the watch's lock.
 */
final class PendingChanges {

  static final long QUIET_MS = 100;
  static final long MAX_DELAY_MS = 500;

  /** What one refresh takes: the whole tree, or these paths; it covers changes up to {@code last}. */
  record Batch(boolean whole, SortedSet<String> paths, long last) {}

  private SortedSet<String> paths = new TreeSet<>();
  private boolean whole;
  private long firstNanos;
  private long lastNanos = System.nanoTime();
  private long numbered;
  private long indexed;
  private int inFlight;
  private boolean running;

  /** A changed path. */
  void add(String path) {
    count();
    paths.add(path);
  }

  /** A change that needs a whole refresh (lost events, a watcher error). */
  void addWhole() {
    count();
    whole = true;
  }

  /** A whole refresh is needed, without a change to wait for (a new registration). */
  void requireWhole() {
    whole = true;
  }

  private void count() {
    long now = System.nanoTime();
    if (paths.isEmpty() && !whole) {
      firstNanos = now;
    }
    lastNanos = now;
    numbered++;
  }

  /** Whether a refresh is waiting. */
  boolean waiting() {
    return whole || !paths.isEmpty();
  }

  /** Whether nothing waits and no refresh runs. */
  boolean settled() {
    return !waiting() && !running;
  }

  /** When the last change was seen ({@link System#nanoTime()}). */
  long lastChangeNanos() {
    return lastNanos;
  }

  /** Nanoseconds until the debounce lets the waiting batch start (0 or less: now). */
  long quietIn(long nowNanos) {
    long quiet = lastNanos + TimeUnit.MILLISECONDS.toNanos(QUIET_MS) - nowNanos;
    long burst = firstNanos + TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MS) - nowNanos;
    return Math.min(quiet, burst);
  }

  /** Takes everything waiting for one refresh. */
  Batch take() {
    Batch b = new Batch(whole, paths, numbered);
    paths = new TreeSet<>();
    whole = false;
    running = true;
    inFlight = b.whole() ? 0 : b.paths().size();
    return b;
  }

  /** The refresh of {@code b} succeeded. */
  void indexed(Batch b) {
    indexed = Math.max(indexed, b.last());
    running = false;
    inFlight = 0;
  }

  /** The refresh of {@code b} failed: its paths wait again, for a whole refresh. */
  void failed(Batch b) {
    paths.addAll(b.paths());
    whole = true;
    running = false;
    inFlight = 0;
  }

  /** Forgets everything waiting (the tree is no longer watched). */
  void dropAll() {
    paths = new TreeSet<>();
    whole = false;
    indexed = numbered;
  }

  /** The number of the last change seen. */
  long last() {
    return numbered;
  }

  /** Whether every change numbered up to {@code last} is in the index. */
  boolean indexedUpTo(long last) {
    return indexed >= last && !whole;
  }

  /** Paths waiting or being refreshed. */
  int files() {
    return paths.size() + inFlight;
  }
}
