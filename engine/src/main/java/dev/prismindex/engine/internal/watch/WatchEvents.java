package dev.prismindex.engine.internal.watch;

import dev.prismindex.engine.internal.walk.RepoWalker;
import dev.prismindex.engine.internal.watch.WatchState.Mode;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event side of a watch (the watcher's and the root anchor's threads): records each change
 * worth a look as pending, under the {@link WatchState}'s lock, wakes the worker and makes a
 * running embedding refresh yield. It never refreshes anything itself.
 */
record WatchEvents(Path root, PathTriage triage, WatchState state, EmbeddingFollowUp embedding)
    implements TreeWatch.Events {

  private static final Logger LOG = LoggerFactory.getLogger(WatchEvents.class);

  @Override
  public void changed(String path, boolean directory, boolean deleted) {
    if (path.equals(".git")) {
      gitDirectoryChanged();
      return;
    }
    if (!triage.worthALook(path, directory, deleted)) {
      return;
    }
    int slash = path.lastIndexOf('/');
    boolean rules = RepoWalker.rulesFile(path);
    state.lock.lock();
    try {
      if (state.mode != Mode.WATCHING && state.mode != Mode.STARTING) {
        return;
      }
      state.sessionWarm = true; // a new directory is walked in it, the triage reads it
      if (rules) {
        // Register again (a directory may no longer be ignored), then refresh the directory
        // whose rules changed: anything below it may have changed.
        state.rewatch(false, 0);
        if (slash < 0) {
          state.changes.addWhole();
        } else {
          state.changes.add(path.substring(0, slash));
        }
      } else {
        state.changes.add(path);
      }
      accepted();
    } finally {
      state.lock.unlock();
    }
  }

  @Override
  public void overflow() {
    LOG.debug("the watch of {} lost events; refreshing the whole tree", root);
    state.lock.lock();
    try {
      state.changes.addWhole();
      accepted();
    } finally {
      state.lock.unlock();
    }
  }

  /**
   * The watcher could not handle an event. A directory that vanished or cannot be read is no
   * hole; another I/O failure (the inotify watch limit) is: the watch stops vouching, releases
   * its watches and tries again later. Anything else costs one whole refresh.
   */
  @Override
  public void failed(Exception e) {
    if (e instanceof NoSuchFileException || e instanceof AccessDeniedException
        || e instanceof FileSystemException f && f.getFile() != null
            && !Files.isDirectory(Path.of(f.getFile()))) {
      LOG.debug("the watch of {} skipped a directory: {}", root, e.toString());
      return;
    }
    state.lock.lock();
    try {
      state.lastError = e.toString();
      if (e instanceof IOException) {
        LOG.warn("the watch of {} cannot register a directory: {}", root, e.toString());
        state.unwatchPending = true;
        state.work.signal();
      } else {
        LOG.debug("the watch of {} failed on an event; refreshing the whole tree", root, e);
        state.changes.addWhole();
        accepted();
      }
    } finally {
      state.lock.unlock();
    }
  }

  @Override
  public void ended() {
    rootChanged();
  }

  /** The entry above the root changed (or the watcher ended): the root may be gone or back. */
  void rootChanged() {
    boolean exists = Files.isDirectory(root);
    state.lock.lock();
    try {
      if (state.closed) {
        return;
      }
      if (!exists && state.mode != Mode.ROOT_GONE) {
        state.unwatchPending = true;
      } else if (exists && (state.mode == Mode.ROOT_GONE || state.mode == Mode.WATCHING)) {
        // Back, or perhaps replaced by another directory: register again, refresh everything.
        LOG.info("the root {} exists (again); registering it", root);
        state.rewatch(true, 0);
      }
      state.work.signal();
    } finally {
      state.lock.unlock();
    }
  }

  /**
   * The root's {@code .git} changed: when it appeared or vanished (git init, or the repository
   * removed), the walk's rules changed everywhere; register again and refresh everything.
   */
  private void gitDirectoryChanged() {
    boolean exists = Files.exists(root.resolve(".git"));
    state.lock.lock();
    try {
      RepoWalker.Session s = state.session;
      if (state.closed || state.mode != Mode.WATCHING || s == null || s.git() == exists) {
        return;
      }
      LOG.info("{}/.git {}; registering the tree again", root, exists ? "appeared" : "vanished");
      state.rewatch(true, 0);
      state.work.signal();
    } finally {
      state.lock.unlock();
    }
  }

  /** After a change was recorded (lock held): a running embedding refresh yields, the worker wakes. */
  private void accepted() {
    embedding.yieldNow();
    state.work.signal();
  }
}
