package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.SkipReason;
import java.io.File;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.dircache.DirCacheIterator;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.WorkingTreeIterator;
import org.eclipse.jgit.treewalk.filter.PathFilter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enumerates the files of a repository. Inside a git work tree it lists what {@code git ls-files
 * --cached --others --exclude-standard} lists (tracked files even when ignored, untracked files not
 * ignored by nested {@code .gitignore}, {@code .git/info/exclude} or {@code core.excludesFile}) using
 * JGit; elsewhere it walks the file system. Either way it never follows symbolic links (they are
 * counted as {@link SkipReason#NOT_REGULAR}), prunes the directories {@link
 * FileRules#prunesDirectory} names and the index home, and applies the name rules of {@link
 * FileRules}.
 *
 * <p>It never enters a directory beyond the limits of {@link FileRules#directoryLimit}: the files
 * below one are counted under that reason by a plain file-system walk (no ignore rules, links not
 * followed, pruned directory names not entered). Besides keeping such files out, this bounds the
 * cost of the git walk: JGit judges every directory it enters as ignored or not by asking each
 * ancestor in turn, decoding and hashing the path at every level, so a chain of {@code d}
 * directories costs about {@code d}&sup3; (1,100 levels took seconds on every probe).
 */
public final class RepoWalker {

  private static final Logger LOG = LoggerFactory.getLogger(RepoWalker.class);

  private final Path root;
  private final @Nullable String homeRelative;
  private final FileRules rules;

  /**
   * @param root the repository root (absolute, normalised)
   * @param home the index home; pruned when inside the root
   * @param rules the name rules
   */
  public RepoWalker(Path root, Path home, FileRules rules) {
    this.root = root;
    this.homeRelative = home.startsWith(root) && !home.equals(root)
        ? root.relativize(home).toString().replace(File.separatorChar, '/') : null;
    this.rules = rules;
  }

  /** Walks the tree once. */
  public WalkResult walk() throws IOException {
    Map<SkipReason, Integer> skipped = new EnumMap<>(SkipReason.class);
    List<String> paths = new ArrayList<>();
    String head = null;
    Repository repo = openRepository();
    if (repo != null) {
      try (repo) {
        head = gitWalk(repo, paths, skipped);
      }
    } else {
      plainWalk(paths, skipped);
    }
    paths.sort(null);
    return new WalkResult(paths, skipped, head);
  }

  private @Nullable Repository openRepository() {
    try {
      FileRepositoryBuilder builder = new FileRepositoryBuilder()
          .findGitDir(root.toFile());
      if (builder.getGitDir() == null) {
        return null;
      }
      Repository repo = builder.setMustExist(true).build();
      if (repo.isBare()) {
        repo.close();
        return null;
      }
      Path workTree = repo.getWorkTree().toPath().toAbsolutePath().normalize();
      if (!root.startsWith(workTree) && !root.toRealPath().startsWith(workTree.toRealPath())) {
        repo.close();
        return null;
      }
      return repo;
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot open git repository above {}; walking the file system: {}", root,
          e.toString());
      return null;
    }
  }

  /** Returns HEAD's commit id, or null for an unborn branch. */
  private @Nullable String gitWalk(Repository repo, List<String> out,
      Map<SkipReason, Integer> skipped) throws IOException {
    Path workTree = repo.getWorkTree().toPath().toAbsolutePath().normalize();
    Path realRoot = root.toRealPath();
    Path realWorkTree = workTree.toRealPath();
    String prefix = realWorkTree.relativize(realRoot).toString().replace(File.separatorChar, '/');
    try (TreeWalk tw = new TreeWalk(repo)) {
      int dcIndex = tw.addTree(new DirCacheIterator(repo.readDirCache()));
      int wtIndex = tw.addTree(new FileTreeIterator(repo));
      tw.setRecursive(false);
      if (!prefix.isEmpty()) {
        tw.setFilter(PathFilter.create(prefix));
      }
      while (tw.next()) {
        String full = tw.getPathString();
        String rel = prefix.isEmpty() ? full
            : full.equals(prefix) ? "" : full.startsWith(prefix + "/")
                ? full.substring(prefix.length() + 1) : null;
        WorkingTreeIterator wt = tw.getTree(wtIndex, WorkingTreeIterator.class);
        DirCacheIterator dc = tw.getTree(dcIndex, DirCacheIterator.class);
        if (tw.isSubtree()) {
          if (rel == null || rel.isEmpty()) {
            tw.enterSubtree(); // an ancestor of the scope
            continue;
          }
          if (rules.prunesDirectory(rel) || rel.equals(homeRelative)) {
            continue;
          }
          if (dc == null && (wt == null || wt.isEntryIgnored())) {
            continue; // untracked and ignored (or gone): git lists nothing below it
          }
          SkipReason limit = rules.directoryLimit(rel);
          if (limit != null) {
            countBelow(root.resolve(rel), limit, skipped);
            continue;
          }
          tw.enterSubtree();
          continue;
        }
        if (rel == null || rel.isEmpty()) {
          continue;
        }
        if (wt == null) {
          continue; // tracked but deleted from the work tree
        }
        FileMode mode = wt.getEntryFileMode();
        if (mode != FileMode.REGULAR_FILE && mode != FileMode.EXECUTABLE_FILE) {
          if (mode == FileMode.SYMLINK || mode == FileMode.GITLINK) {
            count(skipped, SkipReason.NOT_REGULAR);
          }
          continue;
        }
        if (dc == null && wt.isEntryIgnored()) {
          continue;
        }
        accept(rel, out, skipped);
      }
    }
    ObjectId head = repo.resolve(Constants.HEAD);
    return head == null ? null : head.name();
  }

  private void plainWalk(List<String> out, Map<SkipReason, Integer> skipped) throws IOException {
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        if (dir.equals(root)) {
          return FileVisitResult.CONTINUE;
        }
        String rel = relative(dir);
        if (rules.prunesDirectory(rel) || rel.equals(homeRelative)) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        SkipReason limit = rules.directoryLimit(rel);
        if (limit != null) {
          countBelow(dir, limit, skipped);
          return FileVisitResult.SKIP_SUBTREE;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (!attrs.isRegularFile()) {
          count(skipped, SkipReason.NOT_REGULAR);
          return FileVisitResult.CONTINUE;
        }
        accept(relative(file), out, skipped);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException exc) {
        LOG.warn("cannot read {}: {}", file, exc.toString());
        count(skipped, SkipReason.UNREADABLE);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /**
   * Counts the files below a directory the walk does not enter, under {@code reason}; directories
   * the walk would prune (the same {@link FileRules#prunesDirectory} rule) are not counted.
   */
  private void countBelow(Path dir, SkipReason reason, Map<SkipReason, Integer> skipped) {
    int[] n = {0};
    try {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
          String rel = relative(d);
          return !d.equals(dir) && (rules.prunesDirectory(rel) || rel.equals(homeRelative))
              ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          n[0]++;
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException exc) {
          n[0]++;
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      LOG.debug("cannot count the files below {}: {}", dir, e.toString());
    }
    LOG.debug("not entered ({}): {}, {} files", reason, dir, n[0]);
    if (n[0] > 0) {
      skipped.merge(reason, n[0], Integer::sum);
    }
  }

  private String relative(Path p) {
    return root.relativize(p).toString().replace(File.separatorChar, '/');
  }

  private void accept(String rel, List<String> out, Map<SkipReason, Integer> skipped) {
    SkipReason reason = rules.skipByName(rel);
    if (reason != null && !FileRules.literalOnly(reason)) {
      count(skipped, reason);
      return;
    }
    out.add(rel);
  }

  private static void count(Map<SkipReason, Integer> skipped, SkipReason reason) {
    skipped.merge(reason, 1, Integer::sum);
  }
}
