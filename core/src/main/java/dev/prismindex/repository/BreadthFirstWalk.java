package dev.prismindex.repository;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Files;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The breadth-first walk shared by every {@link RepoWalk} (the reference's {@code walk.ts}).
 *
 * <p>A queue starts at the start directory (depth 0). For each directory, the child names come from
 * a {@link Children} source, are sorted in UTF-16 order and processed in turn: skipped names (see
 * {@link RepoPaths#shouldSkipName}) are ignored; once {@code maxEntries} entries were counted the
 * walk stops with {@link TruncationReason#ENTRIES}; the kind is re-derived with {@code lstat}
 * (links are reported, never followed; an entry that cannot be stat-ed is skipped); once
 * {@code maxFiles} files were counted a further file stops the walk with {@link
 * TruncationReason#FILES}; the entry is emitted; a directory whose children would lie deeper than
 * {@code maxDepth} stops the whole walk with {@link TruncationReason#DEPTH}, otherwise it is queued.
 * The abort signal and deadline are checked for every directory and every entry. The start
 * directory failing to open is an error; other unreadable directories are skipped.
 *
 * <p>Output order is therefore breadth-first by level and by name within a directory.
 */
final class BreadthFirstWalk {

  /** Where child names come from: the file system or git's file list. */
  @FunctionalInterface
  interface Children {
    /** The names directly inside {@code directory} (root-relative {@code relative}), any order. */
    List<String> names(Path directory, String relative) throws IOException;
  }

  private record Pending(Path absolute, String relative, int depth) {}

  private BreadthFirstWalk() {}

  static @Nullable TruncationReason run(
      RepoWalk.Request request, Children children, RepoWalk.Visitor visitor) {
    OperationGuard guard = request.guard();
    ArrayDeque<Pending> queue = new ArrayDeque<>();
    queue.add(new Pending(request.start(), request.startRelative(), 0));
    long entries = 0;
    long files = 0;
    boolean first = true;
    while (!queue.isEmpty()) {
      guard.check();
      Pending directory = queue.poll();
      if (directory.depth() > request.maxDepth()) {
        return TruncationReason.DEPTH;
      }
      List<String> names;
      try {
        names = new ArrayList<>(children.names(directory.absolute(), directory.relative()));
      } catch (IOException e) {
        if (first) {
          throw new RepositoryException(
              "cannot open directory: " + RepoPaths.describe(e, "scandir"), e);
        }
        continue;
      } finally {
        first = false;
      }
      Collections.sort(names);
      for (String name : names) {
        guard.check();
        if (RepoPaths.shouldSkipName(name, request.includeHidden(), request.exclude())) {
          continue;
        }
        if (entries >= request.maxEntries()) {
          return TruncationReason.ENTRIES;
        }
        entries++;
        Path absolute;
        try {
          absolute = directory.absolute().resolve(name);
        } catch (InvalidPathException e) {
          continue;
        }
        if (!RepoPaths.isInside(request.realRoot(), absolute.normalize())) {
          continue;
        }
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(
              absolute, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
          continue;
        }
        RepoEntryKind kind = kindOf(attributes);
        if (kind == RepoEntryKind.FILE) {
          if (files >= request.maxFiles()) {
            return TruncationReason.FILES;
          }
          files++;
        }
        String relative = RepoPaths.child(directory.relative(), name);
        if (!visitor.visit(new RepoWalk.Entry(relative, absolute, kind, attributes.size()))) {
          return null;
        }
        if (kind == RepoEntryKind.DIRECTORY) {
          if (directory.depth() + 1 > request.maxDepth()) {
            return TruncationReason.DEPTH;
          }
          queue.add(new Pending(absolute, relative, directory.depth() + 1));
        }
      }
    }
    return null;
  }

  /** The kind of an entry from its {@code lstat} attributes. */
  static RepoEntryKind kindOf(BasicFileAttributes attributes) {
    if (attributes.isSymbolicLink()) {
      return RepoEntryKind.SYMLINK;
    }
    if (attributes.isDirectory()) {
      return RepoEntryKind.DIRECTORY;
    }
    if (attributes.isRegularFile()) {
      return RepoEntryKind.FILE;
    }
    return RepoEntryKind.OTHER;
  }
}
