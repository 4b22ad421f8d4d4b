package dev.prismindex.engine.internal;

import java.io.IOException;

/** Rethrowing the failure of a task that ran on another thread, as it was thrown. */
public final class Failures {

  private Failures() {}

  /**
   * Throws {@code failure} (a task's, such as {@link
   * java.util.concurrent.ExecutionException#getCause()}) again as it was when it is an {@link
   * IOException}, a runtime exception or an error; any other (a checked exception) wrapped in an
   * {@link IOException}. Never returns.
   */
  public static void rethrow(Throwable failure) throws IOException {
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    if (failure instanceof Error err) {
      throw err;
    }
    throw new IOException(failure);
  }
}
