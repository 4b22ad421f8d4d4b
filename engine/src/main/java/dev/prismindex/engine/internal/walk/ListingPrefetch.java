package dev.prismindex.engine.internal.walk;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.treewalk.FileTreeIterator.FileModeStrategy;
import org.eclipse.jgit.treewalk.WorkingTreeIterator;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.FS_POSIX;

/**
 * JGit's file system with directory listings read ahead ({@code FileTreeIterator}): JGit lists a
 * directory and stats each entry ({@link FS#list}) on the walking thread, one directory at a time,
 * which is most of a no-change walk. While a whole-tree walk is {@linkplain #start armed}, worker
 * threads list the directories git's index names, in the order the walk reaches them and at most
 * {@link #AHEAD} ahead of it, with the same {@link FS#list} call; the walk takes each listing when
 * it gets there. A listing is the same either way, only read a little earlier; a directory not read
 * ahead (not tracked, or its listing failed) is listed on the spot as before.
 */
final class ListingPrefetch extends FS_POSIX {

  /** How many directories the workers may list ahead of the walk. */
  static final int AHEAD = 256;

  private static final int WORKERS = Math.min(4, Runtime.getRuntime().availableProcessors());

  private volatile Run run;

  ListingPrefetch() {
    super(FS.DETECTED);
  }

  /**
   * Whether read-ahead pays on this machine (more than one processor) and fits its file system
   * (JGit's POSIX one, which this extends).
   */
  static boolean useful() {
    return WORKERS > 1 && FS.DETECTED instanceof FS_POSIX;
  }

  /**
   * Starts reading ahead the listings of {@code directories} (in the walk's order) for the walk
   * about to run; {@link #stop} when it ends.
   */
  void start(List<File> directories, FileModeStrategy strategy) {
    stop();
    Run r = new Run(directories, strategy);
    run = r;
    r.begin();
  }

  /** Stops reading ahead and drops what the walk did not take. */
  void stop() {
    Run r = run;
    run = null;
    if (r != null) {
      r.pool.shutdownNow();
    }
  }

  @Override
  public WorkingTreeIterator.Entry[] list(File directory, FileModeStrategy strategy) {
    Run r = run;
    if (r != null && r.strategy == strategy) {
      WorkingTreeIterator.Entry[] ahead = r.take(directory);
      if (ahead != null) {
        return ahead;
      }
    }
    return super.list(directory, strategy);
  }

  private WorkingTreeIterator.Entry[] listNow(File directory, FileModeStrategy strategy) {
    return super.list(directory, strategy);
  }

  /**
   * The directories of the work tree that git's index has files in, in the order a whole walk
   * enters them (the work tree first): those at or below {@code prefix} and its ancestors, none at
   * or below a directory the walk prunes ({@code prunes}, given the path relative to the walk's
   * root, below {@code prefix}). The index is sorted so that each directory's entries are
   * consecutive, so each directory is found once, where its first entry is.
   */
  static List<File> trackedDirectories(DirCache dirCache, File workTree, String prefix,
      Predicate<String> prunes) {
    List<File> out = new ArrayList<>();
    out.add(workTree);
    String last = ""; // the directory of the previous entry
    String pruned = null; // the pruned directory the entries are below, or null
    for (int i = 0; i < dirCache.getEntryCount(); i++) {
      String path = dirCache.getEntry(i).getPathString();
      int end = path.lastIndexOf('/');
      if (end < 0 || path.regionMatches(0, last, 0, end) && end == last.length()) {
        continue;
      }
      String dir = path.substring(0, end);
      if (pruned != null && dir.startsWith(pruned)) {
        last = dir;
        continue;
      }
      pruned = null;
      for (int slash = dir.indexOf('/'); ; slash = dir.indexOf('/', slash + 1)) {
        String d = slash < 0 ? dir : dir.substring(0, slash);
        if (!(last + "/").startsWith(d + "/") && (prefix.isEmpty() || prefix.equals(d)
            || prefix.startsWith(d + "/") || d.startsWith(prefix + "/"))) {
          String rel = prefix.isEmpty() ? d
              : d.length() > prefix.length() ? d.substring(prefix.length() + 1) : "";
          if (!rel.isEmpty() && prunes.test(rel)) {
            pruned = d + "/";
            break;
          }
          out.add(new File(workTree, d));
        }
        if (slash < 0) {
          break;
        }
      }
      last = dir;
    }
    return out;
  }

  /** One walk's read-ahead. */
  private final class Run {
    final List<File> directories;
    final FileModeStrategy strategy;
    final Map<File, Integer> order = new HashMap<>(); // the walking thread's only
    final CompletableFuture<WorkingTreeIterator.Entry[]>[] listings;
    final AtomicInteger next = new AtomicInteger();
    /** The position of the directory the walk took last: the workers stay within AHEAD of it. */
    int reached;
    final ExecutorService pool;

    @SuppressWarnings("unchecked")
    Run(List<File> directories, FileModeStrategy strategy) {
      this.directories = directories;
      this.strategy = strategy;
      this.listings = new CompletableFuture[directories.size()];
      for (int i = 0; i < listings.length; i++) {
        listings[i] = new CompletableFuture<>();
        order.put(directories.get(i), i);
      }
      this.pool = Executors.newFixedThreadPool(WORKERS, task -> {
        Thread t = new Thread(task, "prism-index-listing");
        t.setDaemon(true);
        return t;
      });
    }

    void begin() {
      for (int w = 0; w < WORKERS; w++) {
        pool.execute(this::work);
      }
    }

    private void work() {
      try {
        for (int i = next.getAndIncrement(); i < listings.length; i = next.getAndIncrement()) {
          synchronized (this) {
            while (i > reached + AHEAD) {
              wait();
            }
          }
          CompletableFuture<WorkingTreeIterator.Entry[]> listing = listings[i];
          try {
            listing.complete(listNow(directories.get(i), strategy));
          } catch (RuntimeException e) {
            listing.completeExceptionally(e);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // stopped: the walk lists the rest itself
      }
    }

    /** The listing read ahead for {@code directory}, or null (the walk lists it itself). */
    WorkingTreeIterator.Entry[] take(File directory) {
      Integer i = order.remove(directory);
      if (i == null) {
        return null;
      }
      synchronized (this) {
        if (i > reached) {
          reached = i;
          notifyAll();
        }
      }
      CompletableFuture<WorkingTreeIterator.Entry[]> listing = listings[i];
      if (i >= next.get() && !listing.isDone()) {
        return null; // no worker has started it: quicker to list it here
      }
      try {
        WorkingTreeIterator.Entry[] entries = listing.get();
        listings[i] = null;
        return entries;
      } catch (ExecutionException e) {
        listings[i] = null;
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
  }
}
