package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.SkipReason;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheIterator;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.treewalk.FileTreeIterator;
import org.eclipse.jgit.treewalk.FileTreeIterator.DefaultFileModeStrategy;
import org.eclipse.jgit.treewalk.FileTreeIterator.FileModeStrategy;
import org.eclipse.jgit.treewalk.FileTreeIterator.NoGitlinksStrategy;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.WorkingTreeIterator;
import org.eclipse.jgit.treewalk.WorkingTreeOptions;
import org.eclipse.jgit.treewalk.filter.PathFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.jspecify.annotations.Nullable;

/**
 * The walk of a git work tree ({@link RepoWalker}'s other half, beside {@link PlainWalk}): git's
 * index and the work tree side by side through JGit's {@code TreeWalk}, listing what {@code git
 * ls-files --cached --others --exclude-standard} lists, with the pruned names, index home, limits,
 * {@code .prismignore} files and name rules of the plain walk, and each file's stat data from the
 * listing of its directory.
 */
final class GitWalk {

  private final WalkRoot tree;

  GitWalk(WalkRoot tree) {
    this.tree = tree;
  }

  /**
   * Returns HEAD's commit id, or null for an unborn branch. With {@code judgeOnly}, directories
   * that are scope paths are judged but not entered.
   */
  @Nullable String walk(Repository repo, DirCache dirCache, Set<String> scope,
      WalkSink sink, boolean judgeOnly) throws IOException {
    Path workTree = repo.getWorkTree().toPath().toAbsolutePath().normalize();
    PrismIgnore ignore = new PrismIgnore(tree.root());
    Path realRoot = tree.root().toRealPath();
    Path realWorkTree = workTree.toRealPath();
    String prefix = realWorkTree.relativize(realRoot).toString().replace(File.separatorChar, '/');
    FileModeStrategy strategy = repo.getConfig().get(WorkingTreeOptions.KEY).isDirNoGitLinks()
        ? NoGitlinksStrategy.INSTANCE : DefaultFileModeStrategy.INSTANCE;
    ListingPrefetch prefetch =
        scope.isEmpty() && repo.getFS() instanceof ListingPrefetch p ? p : null;
    if (prefetch != null) {
      prefetch.start(ListingPrefetch.trackedDirectories(dirCache, repo.getWorkTree(), prefix,
          tree::prunes), strategy);
    }
    try (TreeWalk tw = new TreeWalk(repo)) {
      int dcIndex = tw.addTree(new DirCacheIterator(dirCache));
      FileTreeIterator workTreeFiles = new FileTreeIterator(repo, strategy);
      // JGit lists nothing below an ignored directory unless asked; a tracked one is entered below
      workTreeFiles.setWalkIgnoredDirectories(true);
      int wtIndex = tw.addTree(workTreeFiles);
      tw.setRecursive(false);
      if (!scope.isEmpty()) {
        List<String> paths = new ArrayList<>(scope.size());
        for (String s : scope) {
          paths.add(prefix.isEmpty() ? s : prefix + "/" + s);
        }
        tw.setFilter(PathFilterGroup.createFromStrings(paths));
      } else if (!prefix.isEmpty()) {
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
            tw.enterSubtree(); // an ancestor of the root
            continue;
          }
          if (FileNames.resolve(tree.root(), rel) == null) {
            // a name this JVM cannot encode: JGit lists nothing below it
            sink.skipped(SkipReason.UNREADABLE);
            continue;
          }
          if (tree.prunes(rel)
              || ignore.ignored(rel, true)) {
            sink.excluded(rel, true);
            continue;
          }
          if (dc == null && (wt == null || wt.isEntryIgnored())) {
            // untracked and ignored (or gone): git lists nothing below it
            if (wt != null) {
              sink.excluded(rel, true);
            }
            continue;
          }
          SkipReason limit = tree.rules().directoryLimit(rel);
          if (limit != null) {
            sink.limited(tree.root().resolve(rel), rel, limit);
            continue;
          }
          if (wt != null) {
            sink.entered(rel);
          }
          if (judgeOnly && scope.contains(rel)) {
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
            sink.skipped(SkipReason.NOT_REGULAR);
          }
          continue;
        }
        if (dc == null && wt.isEntryIgnored()) {
          sink.excluded(rel, false);
          continue;
        }
        long length = wt.getEntryLength();
        SkipReason odd = length == 0 ? notAFile(rel) : null;
        if (odd != null) {
          sink.skipped(odd);
          continue;
        }
        long mtimeNs = FileTime.from(wt.getEntryLastModifiedInstant()).to(TimeUnit.NANOSECONDS);
        sink.file(rel, length, mtimeNs, tree.rules(), ignore);
      }
    } finally {
      if (prefetch != null) {
        prefetch.stop();
      }
    }
    ObjectId head = repo.resolve(Constants.HEAD);
    return head == null ? null : head.name();
  }

  /**
   * Why the entry {@code rel}, which JGit listed as a file of length 0, is not one to read, or null
   * for an empty regular file. JGit calls whatever is not a directory or a link a file: a named
   * pipe (opening it would wait for a writer, for ever), a socket or a device has no length. Nor
   * has a name this JVM cannot encode, or one its listing decoded with replacement characters
   * ({@link FileNames}): JGit stats a file of that name, which does not exist.
   */
  private @Nullable SkipReason notAFile(String rel) {
    Path file = FileNames.resolve(tree.root(), rel);
    if (file == null) {
      return SkipReason.UNREADABLE;
    }
    try {
      return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
          .isRegularFile() ? null : SkipReason.NOT_REGULAR;
    } catch (IOException e) {
      return SkipReason.UNREADABLE;
    }
  }
}
