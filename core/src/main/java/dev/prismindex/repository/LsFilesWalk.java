package dev.prismindex.repository;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The git-aware walk: the entries are what {@code git ls-files --cached --others --exclude-standard}
 * reports (tracked files, also ignored ones, plus untracked files git does not ignore), and with
 * {@code includeIgnored} also {@code git ls-files -o -i --exclude-standard} (untracked ignored files).
 * Git itself applies nested {@code .gitignore} files, {@code .git/info/exclude} and the global
 * excludes file; there is no gitignore parser here.
 *
 * <p>The reported paths become an in-memory tree (parent directories are implied; an entry ending in
 * {@code /}, an untracked nested repository, is a directory) that is walked by {@link
 * BreadthFirstWalk} exactly like the file system: same order (breadth-first, by name), same skip
 * rules, the same {@code entries}/{@code files}/{@code depth} truncation, and kinds from
 * {@code lstat} (a tracked symbolic link is a symlink and never followed; a tracked file that no
 * longer exists is skipped). Paths starting with {@code .git/} and paths with empty, {@code .} or
 * {@code ..} components are dropped.
 *
 * <p>Both commands run in the real root and list the whole root; the walk then starts at the
 * requested scope. Failures fail closed: a timeout (the git timeout or the operation's deadline,
 * whichever is first) or an abort stops the operation ({@link OperationStopped}); output over the cap
 * is {@code "git ls-files output exceeds <n> byte limit"}; a non-zero exit is {@code "git ls-files
 * failed (exit <n>)"} (or {@code "git ls-files (ignored) failed (exit <n>)"}); a process that cannot
 * run fails with its own message.
 */
final class LsFilesWalk implements RepoWalk {

  static final List<String> LS_FILES =
      List.of("ls-files", "--cached", "--others", "--exclude-standard", "-z");
  static final List<String> LS_FILES_IGNORED =
      List.of("ls-files", "-o", "-i", "--exclude-standard", "-z");

  private final GitRunner runner;
  private final boolean includeIgnored;
  private final long maxOutputBytes;
  private final long gitTimeoutMs;
  private final Consumer<Path> onGitFailure;

  /**
   * @param onGitFailure told about a root where ls-files exited non-zero (so a cached detection can
   *     be dropped)
   */
  LsFilesWalk(GitRunner runner, boolean includeIgnored, long maxOutputBytes, long gitTimeoutMs,
      Consumer<Path> onGitFailure) {
    this.runner = runner;
    this.includeIgnored = includeIgnored;
    this.maxOutputBytes = maxOutputBytes;
    this.gitTimeoutMs = gitTimeoutMs;
    this.onGitFailure = onGitFailure;
  }

  @Override
  public @Nullable TruncationReason walk(Request request, Visitor visitor) {
    request.guard().check();
    Tree tree = new Tree();
    tree.addAll(list(request, LS_FILES, "git ls-files"));
    if (includeIgnored) {
      tree.addAll(list(request, LS_FILES_IGNORED, "git ls-files (ignored)"));
    }
    return BreadthFirstWalk.run(request, (directory, relative) -> tree.children(relative), visitor);
  }

  private byte[] list(Request request, List<String> args, String label) {
    OperationGuard guard = request.guard();
    guard.check();
    GitRunner.Result result;
    try {
      result = runner.run(request.realRoot(), args, maxOutputBytes,
          Math.min(gitTimeoutMs, guard.remainingMillis()), guard.signal());
    } catch (IOException e) {
      String message = e.getMessage();
      throw new RepositoryException(message == null ? label + " failed" : message, e);
    }
    switch (result.outcome()) {
      case TIMED_OUT:
        throw new OperationStopped(TruncationReason.TIME);
      case ABORTED:
        throw new OperationStopped(TruncationReason.ABORT);
      case OVERFLOW:
        throw new RepositoryException(
            "git ls-files output exceeds " + maxOutputBytes + " byte limit");
      default:
        break;
    }
    if (result.exitCode() != 0) {
      onGitFailure.accept(request.realRoot());
      throw new RepositoryException(label + " failed (exit " + result.exitCode() + ")");
    }
    return result.stdout();
  }

  /**
   * Splits {@code -z} output: NUL-terminated paths; empty segments are dropped, an unterminated
   * last path is kept.
   */
  static List<String> parseNulSeparated(byte[] output) {
    List<String> paths = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= output.length; i++) {
      if (i == output.length || output[i] == 0) {
        if (i > start) {
          paths.add(Utf8Decoder.decode(output, start, i - start));
        }
        start = i + 1;
      }
    }
    return paths;
  }

  /** Directories (root-relative, {@code "."} for the root) to the names directly inside them. */
  static final class Tree {
    private final Map<String, Set<String>> children = new HashMap<>();

    void addAll(byte[] output) {
      for (String path : parseNulSeparated(output)) {
        add(path);
      }
    }

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
