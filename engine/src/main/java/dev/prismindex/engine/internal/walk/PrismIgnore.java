package dev.prismindex.engine.internal.walk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.ignore.IgnoreNode;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@value #FILE_NAME} files of one walk: gitignore syntax, read and matched by JGit's
 * {@link IgnoreNode} exactly as {@code .gitignore} files are. A file in any directory of the indexed
 * root applies to the paths below that directory; a deeper file's rules come first, and within a
 * file the last matching line decides ({@code !} re-includes what an earlier line of
 * {@value #FILE_NAME} excluded). Unlike {@code .gitignore}, the rules hold for tracked files too,
 * and they can only leave files out: a {@code !} line never brings back a file git ignores or a
 * directory the walk prunes. Each file is read once per walk (a walk sees the rules of the moment
 * it runs); one that cannot be read counts as empty, with a warning.
 */
final class PrismIgnore {

  /** The name of the ignore files. */
  static final String FILE_NAME = ".prismignore";

  private static final Logger LOG = LoggerFactory.getLogger(PrismIgnore.class);

  private final Path root;
  private final Map<String, Optional<IgnoreNode>> nodes = new HashMap<>();

  /** The rules below {@code root} (absolute, normalised). */
  PrismIgnore(Path root) {
    this.root = root;
  }

  /**
   * Whether the rules leave out {@code path} (repository-relative, {@code /}-separated, not
   * empty); the directories above it are judged by the walk as it enters them.
   */
  boolean ignored(String path, boolean directory) {
    String dir = parent(path);
    while (true) {
      IgnoreNode node = node(dir);
      if (node != null) {
        String below = dir.isEmpty() ? path : path.substring(dir.length() + 1);
        switch (node.isIgnored(below, directory)) {
          case IGNORED -> {
            return true;
          }
          case NOT_IGNORED -> {
            return false;
          }
          default -> { } // no line matched: the directory above decides
        }
      }
      if (dir.isEmpty()) {
        return false;
      }
      dir = parent(dir);
    }
  }

  private static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  private @Nullable IgnoreNode node(String dir) {
    return nodes.computeIfAbsent(dir, this::read).orElse(null);
  }

  private Optional<IgnoreNode> read(String dir) {
    Path directory = dir.isEmpty() ? root : FileNames.resolve(root, dir);
    Path file = directory == null ? null : directory.resolve(FILE_NAME);
    if (file == null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    IgnoreNode node = new IgnoreNode();
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      node.parse(file.toString(), in);
    } catch (IOException e) {
      LOG.warn("cannot read {}; its rules are not applied: {}", file, e.toString());
      return Optional.empty();
    }
    return node.getRules().isEmpty() ? Optional.empty() : Optional.of(node);
  }
}
