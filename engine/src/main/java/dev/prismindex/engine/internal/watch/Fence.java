package dev.prismindex.engine.internal.watch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
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
 * <p>The directory lives in the index home (the watch never creates the home itself); names carry
 * a random instance id, so two watches of one home ignore each other's fences. Files are deleted
 * after their pass.
 */
final class Fence {

  private static final Logger LOG = LoggerFactory.getLogger(Fence.class);
  /** The fence directory's name in the index home. */
  static final String DIRECTORY = "watch-fence";
  private static final String FILE_PREFIX = "fence-";

  /** How a pass ended. */
  enum Passage {
    /** Every event queued before the pass was delivered. */
    PASSED,
    /** The fence's event did not arrive in time (the watcher is busy, or lost the directory). */
    LATE,
    /** The fence file could not be written. */
    UNAVAILABLE
  }

  private final Path home;
  private final Path directory;
  private final String prefix;
  private final AtomicLong next = new AtomicLong();
  private long seen;
  /** Bumped once the directory is registered again ({@link #registered()}); guarded by this. */
  private long registration;
  private volatile @Nullable Object directoryKey;

  Fence(Path home) {
    this.home = home;
    this.directory = home.resolve(DIRECTORY);
    this.prefix = FILE_PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "-";
  }

  /**
   * Makes the directory ready to be watched (deleting fence files an earlier process left);
   * false when the index home does not exist or the directory cannot be made.
   */
  boolean prepare() {
    try {
      if (!Files.isDirectory(home)) {
        directoryKey = null;
        return false;
      }
      Files.createDirectories(directory);
      try (DirectoryStream<Path> old = Files.newDirectoryStream(directory, FILE_PREFIX + "*")) {
        for (Path p : old) {
          Files.deleteIfExists(p);
        }
      }
      directoryKey = key();
      return true;
    } catch (IOException e) {
      LOG.debug("no watch fence in {}: {}", home, e.toString());
      directoryKey = null;
      return false;
    }
  }

  /**
   * Whether the directory prepared last is gone or replaced (its watch is lost with it), so the
   * fence must be prepared and registered again.
   */
  boolean lost() {
    Object prepared = directoryKey;
    try {
      return prepared == null || !Objects.equals(prepared, key());
    } catch (IOException e) {
      return true;
    }
  }

  private @Nullable Object key() throws IOException {
    BasicFileAttributes a = Files.readAttributes(directory, BasicFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS);
    return a.fileKey() != null ? a.fileKey() : a.creationTime();
  }

  /**
   * The directory was registered with a new watcher (the old one is closed with whatever it had
   * not delivered yet): a pass waiting for a file made before that makes a new one.
   */
  void registered() {
    synchronized (this) {
      registration++;
      notifyAll();
    }
  }

  /** The directory to watch (not recursively). */
  Path directory() {
    return directory;
  }

  /**
   * Whether {@code path} is in the fence directory (such events are the fence's, never a change
   * of the repository); records the passage of one of this fence's files.
   */
  boolean offer(Path path) {
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

  /** Passes the fence twice, by {@code deadlineNanos} ({@link System#nanoTime()}). */
  Passage pass(long deadlineNanos) throws InterruptedException {
    Passage first = passOnce(deadlineNanos);
    return first == Passage.PASSED ? passOnce(deadlineNanos) : first;
  }

  /**
   * One pass: a new file, then its event. When the directory is registered again while the pass
   * waits, the file's event may have gone with the old watcher, so the pass makes another file.
   */
  private Passage passOnce(long deadlineNanos) throws InterruptedException {
    while (true) {
      long n = next.incrementAndGet();
      long registeredAs;
      synchronized (this) {
        registeredAs = registration;
      }
      Path file = directory.resolve(prefix + n);
      try {
        Files.createFile(file);
      } catch (IOException e) {
        LOG.debug("cannot write the watch fence {}: {}", file, e.toString());
        return Passage.UNAVAILABLE;
      }
      try {
        synchronized (this) {
          while (seen < n && registration == registeredAs) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
              return Passage.LATE;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
          }
          if (seen >= n) {
            return Passage.PASSED;
          }
        }
      } finally {
        try {
          Files.deleteIfExists(file);
        } catch (IOException e) {
          LOG.debug("cannot delete the watch fence {}: {}", file, e.toString());
        }
      }
    }
  }
}
