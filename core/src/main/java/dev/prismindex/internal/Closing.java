package dev.prismindex.internal;

import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Closing several resources together (the indexes of a workspace, the leases of one search):
 * every one is closed even after another fails, and no failure is lost.
 */
public final class Closing {

  private Closing() {}

  /**
   * Closes each of {@code open}, in order.
   *
   * @throws IOException the first failure (an unchecked one as itself, another checked one
   *     wrapped), the later ones suppressed in it
   */
  public static void closeAll(Iterable<? extends AutoCloseable> open) throws IOException {
    closeAll(open, null);
  }

  /**
   * Closes each of {@code open}, in order; with a {@code failure} already on its way (the reason
   * the resources are closed), the failures to close are suppressed in it and nothing is thrown.
   *
   * @throws IOException without {@code failure}, as {@link #closeAll(Iterable)}
   */
  public static void closeAll(Iterable<? extends AutoCloseable> open,
      @Nullable Throwable failure) throws IOException {
    Exception first = null;
    for (AutoCloseable resource : open) {
      try {
        resource.close();
      } catch (Exception e) {
        if (failure != null) {
          failure.addSuppressed(e);
        } else if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first instanceof IOException io) {
      throw io;
    }
    if (first instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (first != null) {
      throw new IOException(first);
    }
  }
}
