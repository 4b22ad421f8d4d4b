package dev.prismindex.repository;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A one-way cancellation flag shared between a caller and the work it started.
 *
 * <p>{@link #abort()} flips the flag once and runs the registered listeners exactly once, on the
 * aborting thread; a listener registered after the abort runs immediately. Listeners are removed with
 * {@link Registration#close()}, so long-lived signals do not accumulate them. Thread-safe.
 */
public final class AbortSignal {

  /** Removes a listener added with {@link #onAbort(Runnable)}; closing twice is harmless. */
  @FunctionalInterface
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  private final List<Runnable> listeners = new ArrayList<>();
  private volatile boolean aborted;

  private AbortSignal() {}

  /** Returns a new signal that is not aborted. */
  public static AbortSignal create() {
    return new AbortSignal();
  }

  /** Returns a new signal that is already aborted. */
  public static AbortSignal aborted() {
    AbortSignal signal = new AbortSignal();
    signal.abort();
    return signal;
  }

  /** Aborts: sets the flag and runs every registered listener once. Later calls do nothing. */
  public void abort() {
    List<Runnable> toRun;
    synchronized (listeners) {
      if (aborted) {
        return;
      }
      aborted = true;
      toRun = List.copyOf(listeners);
      listeners.clear();
    }
    for (Runnable listener : toRun) {
      listener.run();
    }
  }

  /** Whether {@link #abort()} has been called. */
  public boolean isAborted() {
    return aborted;
  }

  /**
   * Runs {@code listener} when this signal is aborted, or now if it already is.
   *
   * @return a registration that removes the listener when closed
   */
  public Registration onAbort(Runnable listener) {
    Objects.requireNonNull(listener, "listener");
    synchronized (listeners) {
      if (!aborted) {
        listeners.add(listener);
        return () -> {
          synchronized (listeners) {
            listeners.remove(listener);
          }
        };
      }
    }
    listener.run();
    return () -> {};
  }

  /**
   * Returns a new signal that is aborted when this one is (or immediately, if this one already is).
   * The link is removed when the returned registration-holder is closed, so children do not leak.
   */
  public Linked link() {
    AbortSignal child = new AbortSignal();
    Registration registration = onAbort(child::abort);
    return new Linked(child, registration);
  }

  /**
   * A child signal linked to a parent; closing it unlinks the child from the parent.
   *
   * @param signal the child signal
   * @param registration the parent's listener that forwards aborts to the child
   */
  public record Linked(AbortSignal signal, Registration registration) implements AutoCloseable {
    @Override
    public void close() {
      registration.close();
    }
  }
}
