package dev.prismindex.repository;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Core's {@link FileListing}, the default of the git-aware operations: the files {@code git
 * ls-files --cached --others --exclude-standard} reports (tracked files, also ignored ones, plus
 * untracked files git does not ignore), and with {@code includeIgnored} also {@code git ls-files
 * -o -i --exclude-standard} (untracked ignored files). Git itself applies nested {@code
 * .gitignore} files, {@code .git/info/exclude} and the global excludes file; there is no gitignore
 * parser here. {@link ListedWalk} walks the listing (a tracked symbolic link is a symlink and never
 * followed; a tracked file that no longer exists is skipped; an untracked nested repository,
 * reported with a trailing {@code /}, is a directory).
 *
 * <p>Both commands run in the real root and list the whole root. Failures fail closed: a timeout
 * (the git timeout or the operation's deadline, whichever is first) or an abort stops the
 * operation ({@link OperationStopped}); output over the cap is {@code "git ls-files output exceeds
 * <n> byte limit"}; a non-zero exit is {@code "git ls-files failed (exit <n>)"} (or {@code "git
 * ls-files (ignored) failed (exit <n>)"}); a process that cannot run fails with its own message.
 */
final class LsFilesWalk implements FileListing {

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
  public List<String> files(Path realRoot, @Nullable AbortSignal signal, long timeoutMillis)
      throws IOException {
    List<String> files = parseNulSeparated(
        list(realRoot, signal, timeoutMillis, LS_FILES, "git ls-files"));
    if (includeIgnored) {
      files.addAll(parseNulSeparated(
          list(realRoot, signal, timeoutMillis, LS_FILES_IGNORED, "git ls-files (ignored)")));
    }
    return files;
  }

  private byte[] list(Path realRoot, @Nullable AbortSignal signal, long timeoutMillis,
      List<String> args, String label) throws IOException {
    GitRunner.Result result;
    try {
      result = runner.run(realRoot, args, maxOutputBytes, Math.min(gitTimeoutMs, timeoutMillis),
          signal);
    } catch (IOException e) {
      String message = e.getMessage();
      throw new IOException(message == null ? label + " failed" : message, e);
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
      onGitFailure.accept(realRoot);
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
}
