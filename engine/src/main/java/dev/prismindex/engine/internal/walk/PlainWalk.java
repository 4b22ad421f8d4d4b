package dev.prismindex.engine.internal.walk;

import dev.prismindex.engine.SkipReason;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The walk of a tree outside git ({@link RepoWalker}'s other half): {@code Files.walkFileTree}
 * without following links, with the same pruned names, index home, limits, {@code .prismignore}
 * files and name rules as the git walk, and each file's stat data from the walk's own {@code
 * lstat}.
 */
final class PlainWalk {

  private static final Logger LOG = LoggerFactory.getLogger(PlainWalk.class);

  private final WalkRoot tree;

  PlainWalk(WalkRoot tree) {
    this.tree = tree;
  }

  /**
   * The plain walk of {@code scope} (empty: the whole tree). A scope path is walked only when
   * every ancestor directory is a real directory (not a link) the whole walk would enter. With
   * {@code judgeOnly}, a scope path that is a directory is judged but not entered.
   */
  void walk(Set<String> scope, WalkSink sink, boolean judgeOnly) throws IOException {
    PrismIgnore ignore = new PrismIgnore(tree.root());
    if (scope.isEmpty()) {
      walkFrom(tree.root(), sink, ignore);
      return;
    }
    for (String path : scope) {
      if (!ancestorsEntered(path, sink, ignore)) {
        continue;
      }
      Path target = FileNames.resolve(tree.root(), path);
      if (target == null) {
        sink.skipped(SkipReason.UNREADABLE);
        continue;
      }
      BasicFileAttributes attrs;
      try {
        attrs = Files.readAttributes(target, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        continue;
      }
      if (attrs.isDirectory() && judgeOnly) {
        judgeDirectory(path, sink, ignore);
      } else if (attrs.isDirectory()) {
        walkFrom(target, sink, ignore);
      } else if (attrs.isRegularFile()) {
        file(path, attrs, sink, ignore);
      } else {
        sink.skipped(SkipReason.NOT_REGULAR);
      }
    }
  }

  /** Reports whether the whole walk would enter the directory {@code path}. */
  private void judgeDirectory(String path, WalkSink sink, PrismIgnore ignore)
      throws IOException {
    if (tree.prunes(path) || tree.rules().directoryLimit(path) != null
        || ignore.ignored(path, true)) {
      sink.excluded(path, true);
    } else {
      sink.entered(path);
    }
  }

  /** Whether the whole walk enters every ancestor directory of {@code path}. */
  private boolean ancestorsEntered(String path, WalkSink sink, PrismIgnore ignore)
      throws IOException {
    for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      String dir = path.substring(0, slash);
      if (tree.prunes(dir) || ignore.ignored(dir, true)) {
        sink.excluded(dir, true);
        return false;
      }
      SkipReason limit = tree.rules().directoryLimit(dir);
      if (limit != null) {
        sink.excluded(dir, true);
        return false;
      }
      Path directory = FileNames.resolve(tree.root(), dir);
      if (directory == null || !Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
    }
    return true;
  }

  private void walkFrom(Path start, WalkSink sink, PrismIgnore ignore) throws IOException {
    Files.walkFileTree(start, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
          throws IOException {
        if (dir.equals(tree.root())) {
          return FileVisitResult.CONTINUE;
        }
        String rel = tree.relative(dir);
        if (!FileNames.namesAgain(tree.root(), rel, dir)) {
          sink.skipped(SkipReason.UNREADABLE); // its name does not name it again in this JVM
          return FileVisitResult.SKIP_SUBTREE;
        }
        if (tree.prunes(rel)) {
          sink.excluded(rel, true);
          return FileVisitResult.SKIP_SUBTREE;
        }
        SkipReason limit = tree.rules().directoryLimit(rel);
        if (limit != null) {
          sink.limited(dir, rel, limit);
          return FileVisitResult.SKIP_SUBTREE;
        }
        if (ignore.ignored(rel, true)) {
          sink.excluded(rel, true);
          return FileVisitResult.SKIP_SUBTREE;
        }
        sink.entered(rel);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        if (!attrs.isRegularFile()) {
          sink.skipped(SkipReason.NOT_REGULAR);
          return FileVisitResult.CONTINUE;
        }
        String rel = tree.relative(file);
        if (!FileNames.namesAgain(tree.root(), rel, file)) {
          sink.skipped(SkipReason.UNREADABLE); // its name does not name it again in this JVM
          return FileVisitResult.CONTINUE;
        }
        file(rel, attrs, sink, ignore);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException exc) {
        LOG.warn("cannot read {}: {}", file, exc.toString());
        sink.skipped(SkipReason.UNREADABLE);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  private void file(String rel, BasicFileAttributes attrs, WalkSink sink, PrismIgnore ignore)
      throws IOException {
    sink.file(rel, attrs.size(), attrs.lastModifiedTime().to(TimeUnit.NANOSECONDS), tree.rules(),
        ignore);
  }
}
