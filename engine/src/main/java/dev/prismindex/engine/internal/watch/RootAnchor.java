package dev.prismindex.engine.internal.watch;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the nearest existing ancestor of the root (its parent while it exists), not
 * recursively, with the JDK's watch service, and calls back when the entry leading to the root is
 * created, deleted or moved: the tree watch cannot see its own root vanish (a moved directory
 * keeps its inotify watches) or come back. One thread; the callback runs on it.
 */
final class RootAnchor implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RootAnchor.class);

  private final Path root;
  private final Runnable onChange;
  private final WatchService service;
  private final Thread thread;
  private @Nullable WatchKey key;
  private @Nullable Path anchor;

  private RootAnchor(Path root, Runnable onChange, WatchService service) {
    this.root = root;
    this.onChange = onChange;
    this.service = service;
    this.thread = new Thread(this::run, "prism-index-watch-root");
    this.thread.setDaemon(true);
  }

  /** Starts watching above {@code root}; null when the root has no parent (a file-system root). */
  static @Nullable RootAnchor start(Path root, Runnable onChange) throws IOException {
    if (root.getParent() == null) {
      return null;
    }
    RootAnchor a = new RootAnchor(root, onChange, FileSystems.getDefault().newWatchService());
    try {
      a.reanchor();
    } catch (IOException | RuntimeException e) {
      a.service.close();
      throw e;
    }
    a.thread.start();
    return a;
  }

  private void run() {
    while (true) {
      WatchKey k;
      try {
        k = service.take();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      }
      boolean relevant = false;
      Path next = nextTowardRoot();
      for (WatchEvent<?> ev : k.pollEvents()) {
        Object context = ev.context();
        if (ev.kind() == StandardWatchEventKinds.OVERFLOW
            || (context instanceof Path p && p.equals(next))) {
          relevant = true;
        }
      }
      boolean valid = k.reset();
      if (relevant || !valid) {
        try {
          reanchor();
        } catch (ClosedWatchServiceException e) {
          return;
        } catch (IOException | RuntimeException e) {
          LOG.warn("cannot watch above {}: {}; the root's deletion goes unnoticed", root,
              e.toString());
        }
        onChange.run();
      }
    }
  }

  /** The name of the anchor's entry that leads to the root. */
  private synchronized @Nullable Path nextTowardRoot() {
    Path a = anchor;
    if (a == null || a.getNameCount() >= root.getNameCount()) {
      return null;
    }
    return root.getName(a.getNameCount());
  }

  /**
   * Watches the parent of the root when the root exists, else its nearest existing ancestor;
   * checks again after registering, so an ancestor created meanwhile is not missed.
   */
  private synchronized void reanchor() throws IOException {
    while (true) {
      Path target = Files.isDirectory(root) ? root.getParent() : nearestExistingAncestor();
      if (target == null) {
        return;
      }
      if (!target.equals(anchor)) {
        if (key != null) {
          key.cancel();
        }
        key = target.register(service, StandardWatchEventKinds.ENTRY_CREATE,
            StandardWatchEventKinds.ENTRY_DELETE);
        anchor = target;
        LOG.debug("watching {} for the root {}", target, root);
      }
      Path now = Files.isDirectory(root) ? root.getParent() : nearestExistingAncestor();
      if (target.equals(now)) {
        return;
      }
    }
  }

  private @Nullable Path nearestExistingAncestor() {
    for (Path p = root.getParent(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p)) {
        return p;
      }
    }
    return null;
  }

  @Override
  public void close() {
    try {
      service.close();
    } catch (IOException e) {
      LOG.debug("closing the root watch failed", e);
    }
    thread.interrupt();
  }
}
