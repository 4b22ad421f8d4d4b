package dev.prismindex.engine.internal.watch;

import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.RepoWalker;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Decides which changed paths are worth a refresh, in two steps. On the watcher's thread, per
 * event and without I/O ({@link #worthALook}): paths in {@code .git}, in the index home, below a
 * pruned directory name, or at or below a directory a walk found excluded (ignored by git and
 * untracked, or over the limits) are dropped. On the worker, per batch ({@link #scope}): the
 * remaining paths are judged by the walk's own rules, without entering directories, and those the
 * walk leaves out (an ignored file next to indexed ones, a secret's name) are dropped; the rest,
 * with a path below another one folded into it, is the scope of the refresh.
 *
 * <p>Dropping is safe because no file the walk leaves out can be in the index while the rules
 * stay the same; rule changes ({@code .gitignore}, {@code .prismignore}) are handled by the worker.
 */
final class PathTriage {

  /** Over this many paths, one unscoped refresh is cheaper than the scoped walk. */
  static final int MAX_SCOPE_PATHS = 10_000;

  private final FileRules rules;
  private final @Nullable String homeRelative;
  /** Directories a walk did not enter: ignored and untracked, pruned, over the limits. */
  private final Set<String> excludedDirectories = ConcurrentHashMap.newKeySet();
  /**
   * Files a walk left out (ignored and untracked, or by a name rule), so that their later events,
   * deletion included, are dropped without a walk (a deleted path cannot be judged).
   */
  private final Set<String> excludedFiles = ConcurrentHashMap.newKeySet();

  PathTriage(Path root, Path home, FileRules rules) {
    this.rules = rules;
    this.homeRelative = home.startsWith(root) && !home.equals(root)
        ? root.relativize(home).toString().replace(File.separatorChar, '/') : null;
  }

  /**
   * The walks' findings are recorded for one generation of the rules; a walk of an older one
   * (a registration being replaced) records nothing.
   */
  private volatile int generation;

  /**
   * Records a directory a walk did not enter, or a file it left out, under the rules of {@code
   * generation}.
   */
  void excluded(String path, boolean directory, int generation) {
    if (generation == this.generation) {
      (directory ? excludedDirectories : excludedFiles).add(path);
    }
  }

  /**
   * Records a directory a walk entered, or a file it kept, under the rules of {@code generation}:
   * whatever was left out at that path before (another file or directory, tracked since, ...)
   * is forgotten.
   */
  void included(String path, boolean directory, int generation) {
    if (generation == this.generation) {
      (directory ? excludedDirectories : excludedFiles).remove(path);
    }
  }

  /**
   * Forgets what walks left out (the rules may have changed; a new walk records it again) and
   * returns the new generation.
   */
  synchronized int forgetExcluded() {
    generation++;
    excludedDirectories.clear();
    excludedFiles.clear();
    return generation;
  }

  /** The current generation of the rules. */
  int generation() {
    return generation;
  }

  /**
   * The cheap check of one event's path (repository-relative, not empty). A deleted path is
   * forgotten as excluded: whatever appears there next is judged again.
   */
  boolean worthALook(String path, boolean directory, boolean deleted) {
    if (deleted) {
      if (excludedFiles.remove(path) | excludedDirectories.remove(path)) {
        return false;
      }
    }
    if (homeRelative != null
        && (path.equals(homeRelative) || path.startsWith(homeRelative + "/"))) {
      return false;
    }
    if (path.equals(".git") || path.startsWith(".git/") || path.endsWith("/.git")
        || path.contains("/.git/")) {
      return false;
    }
    if (rules.underPrunedDirectory(path) || directory && rules.prunesDirectory(path)) {
      return false;
    }
    if (!directory && excludedFiles.contains(path) && !RepoWalker.rulesFile(path)) {
      return false; // a rules file its own rules leave out still changes the rules
    }
    if (excludedDirectories.isEmpty()) {
      return true;
    }
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (excludedDirectories.contains(path.substring(0, slash))) {
        return false;
      }
    }
    return !excludedDirectories.contains(path);
  }

  /**
   * The scope of a refresh for a batch of changed paths: folded (a path below another one goes),
   * mapped to a directory a scope can name (a name with a backslash goes to its parent), judged
   * by {@code session}; empty when nothing is left, null when the whole repository should be
   * refreshed instead (the root itself, or more than {@value #MAX_SCOPE_PATHS} paths).
   */
  @Nullable Set<String> scope(Collection<String> batch, RepoWalker.Session session)
      throws IOException {
    SortedSet<String> named = new TreeSet<>();
    for (String p : batch) {
      String path = nameable(p);
      if (path.isEmpty()) {
        return null;
      }
      named.add(path);
    }
    SortedSet<String> folded = fold(named);
    int gen = generation;
    if (folded.size() > MAX_SCOPE_PATHS) {
      return null;
    }
    if (folded.isEmpty()) {
      return folded;
    }
    Set<String> left = new HashSet<>();
    session.judge(folded, new RepoWalker.Visitor() {
      @Override
      public void entered(String directory) {
        included(directory, true, gen);
      }

      @Override
      public void kept(String file) {
        included(file, false, gen);
      }

      @Override
      public void excluded(String path, boolean directory) {
        left.add(path);
        PathTriage.this.excluded(path, directory, gen);
      }
    });
    SortedSet<String> scope = new TreeSet<>();
    for (String p : folded) {
      if (!atOrBelowAny(left, p)) {
        scope.add(p);
      }
    }
    return scope;
  }

  /** The path, or its nearest ancestor a refresh scope can name; "" for the root. */
  private static String nameable(String path) {
    String p = path;
    while (p.indexOf('\\') >= 0) {
      int slash = p.lastIndexOf('/');
      p = slash < 0 ? "" : p.substring(0, slash);
    }
    return p;
  }

  /** The paths without those below another one. */
  static SortedSet<String> fold(SortedSet<String> paths) {
    SortedSet<String> out = new TreeSet<>();
    Set<String> kept = new HashSet<>();
    for (String p : paths) {
      if (!atOrBelowAny(kept, p)) {
        kept.add(p);
        out.add(p);
      }
    }
    return out;
  }

  /** Whether {@code path} or one of its ancestors is in {@code set}. */
  static boolean atOrBelowAny(Set<String> set, String path) {
    if (set.isEmpty()) {
      return false;
    }
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (set.contains(path.substring(0, slash))) {
        return true;
      }
    }
    return set.contains(path);
  }
}
