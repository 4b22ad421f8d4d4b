package dev.prismindex.engine.internal.watch;

import dev.prismindex.engine.internal.walk.RepoWalker;
import io.methvin.watcher.DirectoryChangeEvent;
import io.methvin.watcher.DirectoryChangeListener;
import io.methvin.watcher.DirectoryWatcher;
import io.methvin.watcher.visitor.FileTreeVisitor;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One registration of the repository with {@code io.methvin:directory-watcher}: the directories
 * the engine's walk enters are watched (never a pruned or ignored-and-untracked directory, the
 * index home or {@code .git}, so a {@code node_modules} tree costs no watch), plus the fence
 * directory. Events are turned into repository-relative paths and handed to {@link Events} on the
 * watcher's thread, which must return quickly. A directory created later is registered by the
 * same walk (its rules decide whether it is watched), and its files are reported as created.
 */
final class TreeWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TreeWatch.class);

  /** Receives what the watcher sees, on its thread. */
  interface Events {
    /** A path was created or modified, or deleted. */
    void changed(String path, boolean directory, boolean deleted);

    /** Events were lost. */
    void overflow();

    /** The watcher failed to handle an event (for example to register a new directory). */
    void failed(Exception e);

    /** The watcher stopped by itself (every watched directory is gone). */
    void ended();
  }

  private final Path root;
  private final @Nullable Fence fence;
  private final PathTriage triage;
  /** The generation of the triage's findings this registration's walks record under. */
  private final int generation;
  private final Events events;
  private final RepoWalker.Session session;
  private final AtomicLong eventsSeen;
  private final NavigableSet<String> watched = new ConcurrentSkipListSet<>();
  private final ExecutorService thread;
  private @Nullable DirectoryWatcher watcher;
  private volatile boolean closed;

  private TreeWatch(Path root, @Nullable Fence fence, RepoWalker.Session session,
      PathTriage triage, Events events, AtomicLong eventsSeen) {
    this.root = root;
    this.fence = fence;
    this.triage = triage;
    this.generation = triage.generation();
    this.events = events;
    this.session = session;
    this.eventsSeen = eventsSeen;
    this.thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "prism-index-watch-events");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Registers every directory the walk enters and starts delivering events; returns once the
   * registration is complete (events of changes made from then on are delivered). The walks run
   * in {@code session}, synchronized on it (its owner shares it and closes it).
   *
   * @throws IOException when a directory cannot be registered (for example the inotify watch
   *     limit) or the root cannot be walked; nothing stays registered
   */
  static TreeWatch start(Path root, @Nullable Fence fence, RepoWalker.Session session,
      PathTriage triage, Events events, AtomicLong eventsSeen) throws IOException {
    TreeWatch w = new TreeWatch(root, fence, session, triage, events, eventsSeen);
    try {
      w.register();
      return w;
    } catch (IOException | RuntimeException e) {
      w.close();
      throw e;
    }
  }

  private void register() throws IOException {
    List<Path> paths = new ArrayList<>();
    paths.add(root);
    if (fence != null) {
      paths.add(fence.directory());
    }
    DirectoryWatcher w = DirectoryWatcher.builder()
        .paths(paths)
        .listener(new Listener())
        .fileHashing(false)
        .fileTreeVisitor(this::visit)
        .logger(LoggerFactory.getLogger(DirectoryWatcher.class))
        .build();
    watcher = w;
    CompletableFuture<Void> loop = w.watchAsync(thread);
    if (loop.isCompletedExceptionally()) {
      try {
        loop.get();
      } catch (ExecutionException e) {
        throw asIoException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while registering watches");
      }
    }
    loop.whenComplete((ok, error) -> {
      if (!closed) {
        if (error != null) {
          LOG.debug("the watcher stopped", error);
        }
        events.ended();
      }
    });
  }

  private static IOException asIoException(@Nullable Throwable t) {
    Throwable cause = t;
    while ((cause instanceof UncheckedIOException || cause instanceof CompletionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
  }

  /** How many directories are watched now. */
  int watchedDirectories() {
    return watched.size();
  }

  /**
   * The tree visitor of the watcher: registers (or, for a new directory, reports) the
   * directories the walk enters at or below {@code start}, and reports the files it keeps there.
   */
  private void visit(Path start, FileTreeVisitor.Callback onDirectory,
      FileTreeVisitor.Callback onFile) throws IOException {
    if (fence != null && start.equals(fence.directory())) {
      onDirectory.call(start);
      return;
    }
    if (closed || !start.startsWith(root)) {
      return;
    }
    String rel = relative(start);
    if (rel.isEmpty()) {
      watched.add("");
      onDirectory.call(root);
    }
    String below = rel + "/";
    synchronized (session) {
      session.visit(rel.isEmpty() ? Set.of() : Set.of(rel),
          new RepoWalker.Visitor() {
            @Override
            public void entered(String directory) throws IOException {
              triage.included(directory, true, generation);
              if (rel.isEmpty() || directory.equals(rel) || directory.startsWith(below)) {
                watched.add(directory);
                onDirectory.call(root.resolve(directory));
              }
            }

            @Override
            public void kept(String file) throws IOException {
              triage.included(file, false, generation);
              if (rel.isEmpty() || file.startsWith(below)) {
                onFile.call(root.resolve(file));
              }
            }

            @Override
            public void excluded(String path, boolean directory) {
              triage.excluded(path, directory, generation);
            }
          });
    }
  }

  private String relative(Path p) {
    return root.relativize(p).toString().replace(File.separatorChar, '/');
  }

  private final class Listener implements DirectoryChangeListener {
    @Override
    public void onEvent(DirectoryChangeEvent event) {
      if (closed) {
        return; // a newer registration reports the changes
      }
      if (event.eventType() == DirectoryChangeEvent.EventType.OVERFLOW) {
        eventsSeen.incrementAndGet();
        events.overflow();
        return;
      }
      Path path = event.path();
      if (path == null || fence != null && fence.offer(path)) {
        return;
      }
      eventsSeen.incrementAndGet();
      if (!path.startsWith(root)) {
        return;
      }
      String rel = relative(path);
      if (rel.isEmpty()) {
        return;
      }
      if (event.eventType() == DirectoryChangeEvent.EventType.DELETE) {
        watched.remove(rel);
        watched.subSet(rel + "/", rel + "0").clear();
      }
      events.changed(rel, event.isDirectory(),
          event.eventType() == DirectoryChangeEvent.EventType.DELETE);
    }

    @Override
    public void onException(Exception e) {
      if (!closed) {
        events.failed(e);
      }
    }

    @Override
    public boolean isWatching() {
      return !closed;
    }
  }

  @Override
  public void close() {
    closed = true;
    DirectoryWatcher w = watcher;
    if (w != null) {
      try {
        w.close();
      } catch (IOException | RuntimeException e) {
        LOG.debug("closing the watcher failed", e);
      }
    }
    thread.shutdownNow();
  }
}
