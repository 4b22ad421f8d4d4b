package dev.prismindex.repository;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The walk over a {@link FileListing}: the listed paths become an in-memory tree (parent
 * directories are implied; an entry ending in {@code /} is a directory) that {@link
 * BreadthFirstWalk} walks exactly like the file system: same order, same skip rules, the same
 * {@code entries}/{@code files}/{@code depth} truncation, kinds from {@code lstat}. The whole root
 * is listed; the walk then starts at the requested scope.
 */
final class ListedWalk implements RepoWalk {

  private final FileListing listing;

  ListedWalk(FileListing listing) {
    this.listing = listing;
  }

  @Override
  public @Nullable TruncationReason walk(Request request, Visitor visitor) {
    OperationGuard guard = request.guard();
    guard.check();
    Collection<String> files;
    try {
      files = listing.files(request.realRoot(), guard.signal(), guard.remainingMillis());
    } catch (IOException e) {
      String message = e.getMessage();
      throw new RepositoryException(message == null ? "cannot list the files" : message, e);
    }
    guard.check();
    Tree tree = new Tree();
    for (String path : files) {
      tree.add(path);
    }
    return BreadthFirstWalk.run(request, (directory, relative) -> tree.children(relative), visitor);
  }

  /** The listing's class name (what {@link LocalRepositoryOperations#toString} shows). */
  String listingName() {
    return listing.getClass().getSimpleName();
  }

  /** Directories (root-relative, {@code "."} for the root) to the names directly inside them. */
  static final class Tree {
    private final Map<String, Set<String>> children = new HashMap<>();

    void add(String path) {
      String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
      String[] parts = trimmed.split("/", -1);
      for (String part : parts) {
        if (part.isEmpty() || part.equals(".") || part.equals("..")) {
          return;
        }
      }
      if (parts[0].equals(".git")) {
        return;
      }
      String parent = ".";
      for (String part : parts) {
        children.computeIfAbsent(parent, key -> new LinkedHashSet<>()).add(part);
        parent = RepoPaths.child(parent, part);
      }
    }

    List<String> children(String directory) {
      Set<String> names = children.get(directory);
      return names == null ? List.of() : new ArrayList<>(names);
    }
  }
}
