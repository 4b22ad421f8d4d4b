package dev.prismindex.engine.internal.watch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A barrier through the watcher's event queue: a file created in a watched directory of its own
 * produces an event after every event the kernel queued before it (one inotify queue per watch
 * service, read in order), so once that event arrives every earlier change has reached the
 * listener. Two passes are needed: a key whose events were being handed out when the first fence
 * arrived is queued again behind it, but ahead of the second.
 *
 * <p>The directory lives in the index home; names carry a random instance id, so two watches of
 * one home ignore each other's fences. Files are deleted after their pass.
 */
public final class Fence {

  private static final Logger LOG = LoggerFactory.getLogger(Fence.class);
  /** The fence directory's name in the index home. */
  public static final String DIRECTORY = "watch-fence";
  private static final String FILE_PREFIX = "fence-";

  private final Path directory;
  private final String prefix;
  private final AtomicLong next = new AtomicLong();
  private long seen;

  private Fence(Path directory) {
    this.directory = directory;
    this.prefix = FILE_PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";
  }

  /**
   * A fence in {@code home}, creating its directory and deleting fence files left by an earlier
   * process; null when the home does not exist (the watch does not create the index home) or the
   * directory cannot be made.
   */
  public static @Nullable Fence inHome(Path home) {
    Path dir = home.resolve(DIRECTORY);
    try {
      if (!Files.isDirectory(home)) {
        return null;
      }
      Files.createDirectories(dir);
      try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, FILE_PREFIX + "*")) {
        for (Path p : old) {
          Files.deleteIfExists(p);
        }
      }
      return new Fence(dir);
    } catch (IOException e) {
      LOG.debug("no watch fence in {}: {}", home, e.toString());
      return null;
    }
  }

  /** The directory to watch (not recursively). */
  public Path directory() {
    return directory;
  }

  /**
   * Whether {@code path} is in the fence directory (such events are the fence's, never a change
   * of the repository); records the passage of one of this fence's files.
   */
  public boolean offer(Path path) {
    Path parent = path.getParent();
    if (parent == null || !parent.equals(directory)) {
      return false;
    }
    String name = path.getFileName().toString();
    if (name.startsWith(prefix)) {
      try {
        long n = Long.parseLong(name.substring(prefix.length()));
        synchronized (this) {
          if (n > seen) {
            seen = n;
            notifyAll();
          }
        }
      } catch (NumberFormatException e) {
        // not ours
      }
    }
    return true;
  }

  /**
   * Passes the fence twice: returns true once every event queued before the call has been handed
   * to the listener, false when that is not proven by {@code deadlineNanos} ({@link
   * System#nanoTime()}) or the fence file cannot be written.
   */
  public boolean pass(long deadlineNanos) throws InterruptedException {
    return passOnce(deadlineNanos) && passOnce(deadlineNanos);
  }

  private boolean passOnce(long deadlineNanos) throws InterruptedException {
    long n = next.incrementAndGet();
    Path file = directory.resolve(prefix + n);
    try {
      Files.createFile(file);
    } catch (IOException e) {
      LOG.debug("cannot write the watch fence {}: {}", file, e.toString());
      return false;
    }
    try {
      synchronized (this) {
        while (seen < n) {
          long left = deadlineNanos - System.nanoTime();
          if (left <= 0) {
            return false;
          }
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      }
      return true;
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.debug("cannot delete the watch fence {}: {}", file, e.toString());
      }
    }
  }
}
