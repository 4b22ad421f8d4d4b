package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.SkipReason;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enumerates the files of a repository. Inside a git work tree it lists what {@code git ls-files
 * --cached --others --exclude-standard} lists (tracked files even when ignored, untracked files not
 * ignored by nested {@code .gitignore}, {@code .git/info/exclude} or {@code core.excludesFile})
 * using JGit ({@link GitWalk}); elsewhere it walks the file system ({@link PlainWalk}). Either way it never follows
 * symbolic links (they are counted as {@link SkipReason#NOT_REGULAR}), prunes the directories
 * {@link FileRules#prunesDirectory} names and the index home, leaves out what the {@code .prismignore}
 * files exclude ({@link PrismIgnore}: gitignore syntax, tracked files included), and applies the
 * name rules of {@link FileRules}. Each file comes with the size and modification time read while
 * its directory was listed ({@link WalkedFile}), so a check against the manifest stats nothing
 * again.
 *
 * <p>It never enters a directory beyond the limits of {@link FileRules#directoryLimit}: the files
 * below one are counted under that reason by a plain file-system walk (no ignore rules, links not
 * followed, pruned directory names not entered). Besides keeping such files out, this bounds the
 * cost of the git walk: JGit judges every directory it enters as ignored or not by asking each
 * ancestor in turn, decoding and hashing the path at every level, so a chain of {@code d}
 * directories costs about {@code d}&sup3; (1,100 levels took seconds on every probe).
 *
 * <p>A walk may be limited to a scope (repository-relative files and directories): it then enters
 * only the ancestors of the scope paths and what lies below them, judging every directory it
 * enters, ancestors included, by the same rules, so a scoped walk yields exactly the part of a
 * whole walk at or below the scope. A {@link Visitor} sees what a walk enters and leaves out (a
 * file watcher registers the directories the walk enters and ignores events for what it leaves
 * out); a {@link Session} keeps the repository open between such walks.
 */
public final class RepoWalker {

  private static final Logger LOG = LoggerFactory.getLogger(RepoWalker.class);

  private final WalkRoot tree;
  private final Path root;

  /** The name of the files whose gitignore-syntax rules keep paths out of the index. */
  public static final String IGNORE_FILE = PrismIgnore.FILE_NAME;

  /**
   * Whether a repository-relative path names a file of the walk's rules ({@code .gitignore} or
   * {@value #IGNORE_FILE}): when it changes, what lies below its directory may change.
   */
  public static boolean rulesFile(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return name.equals(".gitignore") || name.equals(IGNORE_FILE);
  }

  /** What a walk enters, keeps and leaves out, by repository-relative path. */
  public interface Visitor {
    /** A directory the walk enters, called before it is listed. */
    void entered(String directory) throws IOException;

    /** A file the walk yields. */
    void kept(String file) throws IOException;

    /**
     * A directory the walk does not enter, or a file it leaves out, because git ignores it (and it
     * is not tracked), by a name rule, as the index home, or by the depth and path limits. No file
     * at or below such a path can be indexed while the rules stay the same.
     */
    void excluded(String path, boolean directory) throws IOException;
  }

  /**
   * @param root the repository root (absolute, normalised)
   * @param home the index home; pruned when inside the root
   * @param rules the name rules
   */
  public RepoWalker(Path root, Path home, FileRules rules) {
    this.tree = WalkRoot.of(root, home, rules);
    this.root = root;
  }

  /** Walks the whole tree once. */
  public WalkResult walk() throws IOException {
    return walk(Set.of());
  }

  /**
   * Walks the paths of {@code scope} (repository-relative, {@code /}-separated, none below
   * another; empty: the whole tree). The skip counts of a scoped walk cover what it saw only, and
   * files below a directory over the limits are counted by a whole walk only.
   */
  public WalkResult walk(Set<String> scope) throws IOException {
    Collector collector = new Collector(scope.isEmpty());
    String head;
    Repository repo = openRepository();
    if (repo != null) {
      try (repo) {
        head = new GitWalk(tree).walk(repo, repo.readDirCache(), scope,
            collector, false);
      }
    } else {
      head = null;
      new PlainWalk(tree).walk(scope, collector, false);
    }
    collector.files.sort(Comparator.comparing(WalkedFile::path));
    return new WalkResult(collector.files, collector.skipped, head);
  }

  /**
   * Opens a session that keeps the repository open (and re-reads git's index only when it
   * changed) for repeated visits. Not thread-safe.
   */
  public Session session() {
    return new Session(openRepository());
  }

  /** Repeated visits of one tree, sharing the open repository. Close it when done. */
  public final class Session implements AutoCloseable {
    private final @Nullable Repository repo;
    private @Nullable DirCache dirCache;

    private Session(@Nullable Repository repo) {
      this.repo = repo;
    }

    /** Whether the root is inside a git work tree (else a plain walk without ignore rules). */
    public boolean git() {
      return repo != null;
    }

    /** The git directory, or null outside git. */
    public @Nullable Path gitDirectory() {
      return repo == null ? null : repo.getDirectory().toPath().toAbsolutePath().normalize();
    }

    /** Walks {@code scope} (empty: the whole tree), telling {@code visitor} what it sees. */
    public void visit(Set<String> scope, Visitor visitor) throws IOException {
      Visiting sink = new Visiting(visitor);
      if (repo == null) {
        new PlainWalk(tree).walk(scope, sink, false);
        return;
      }
      new GitWalk(tree).walk(repo, dirCache(repo), scope, sink, false);
    }

    /**
     * Judges the paths of {@code scope} (not empty) without entering the directories among
     * them: {@code visitor} hears of each path that exists as entered, kept or excluded, and of
     * an excluded ancestor (a path below it is not reached); ancestors the walk enters may be
     * reported too. The cost follows the paths' depth, not what lies below them.
     */
    public void judge(Set<String> scope, Visitor visitor) throws IOException {
      if (scope.isEmpty()) {
        throw new IllegalArgumentException("nothing to judge");
      }
      Visiting sink = new Visiting(visitor);
      if (repo == null) {
        new PlainWalk(tree).walk(scope, sink, true);
        return;
      }
      new GitWalk(tree).walk(repo, dirCache(repo), scope, sink, true);
    }

    private DirCache dirCache(Repository repository) throws IOException {
      DirCache dc = dirCache;
      if (dc == null) {
        dc = repository.readDirCache();
        dirCache = dc;
      } else {
        dc.read(); // re-reads only when git's index changed on disk
      }
      return dc;
    }

    /** Drops the cached git index (read again by the next walk): memory for an idle session. */
    public void trim() {
      dirCache = null;
    }

    @Override
    public void close() {
      dirCache = null;
      if (repo != null) {
        repo.close();
      }
    }
  }

  /** The sink of {@link #walk}: the kept paths and the skip counts. */
  private final class Collector extends WalkSink {
    final List<WalkedFile> files = new ArrayList<>();
    final Map<SkipReason, Integer> skipped = new EnumMap<>(SkipReason.class);
    final boolean whole;

    Collector(boolean whole) {
      this.whole = whole;
    }

    @Override
    void kept(WalkedFile file) {
      files.add(file);
    }

    @Override
    void skipped(SkipReason reason) {
      skipped.merge(reason, 1, Integer::sum);
    }

    @Override
    void limited(Path directory, String relative, SkipReason reason) {
      if (whole) {
        countBelow(directory, reason, skipped);
      }
    }
  }

  /** The sink of a {@link Session} visit. */
  private static final class Visiting extends WalkSink {
    private final Visitor visitor;

    Visiting(Visitor visitor) {
      this.visitor = visitor;
    }

    @Override
    void entered(String directory) throws IOException {
      visitor.entered(directory);
    }

    @Override
    void kept(WalkedFile file) throws IOException {
      visitor.kept(file.path());
    }

    @Override
    void excluded(String path, boolean directory) throws IOException {
      visitor.excluded(path, directory);
    }
  }

  private @Nullable Repository openRepository() {
    try {
      FileRepositoryBuilder builder = new FileRepositoryBuilder()
          .findGitDir(root.toFile());
      if (builder.getGitDir() == null) {
        return null;
      }
      if (ListingPrefetch.useful()) {
        builder.setFS(new ListingPrefetch());
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
          String rel = tree.relative(d);
          return !d.equals(dir) && tree.prunes(rel)
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
}
