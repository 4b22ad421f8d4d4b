package dev.prismindex.repository;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The one rule for repository-relative paths and search scopes, used by the index seam, both index
 * backends, the engine and the command line.
 *
 * <p>A repository-relative path is {@code /}-separated. It is <b>canonical</b> when it is non-empty
 * and every segment is non-empty and neither {@code .} nor {@code ..} ({@code src/a.java}); that is
 * how a backend must report paths. A path a caller supplies is <b>normalised</b> first:
 * {@code .} and empty segments are dropped, so {@code ./src/}, {@code src/} and {@code src//.}
 * all become {@code src}. Rejected, whatever the caller: a {@code null} or empty path, a control
 * character (U+0000..U+001F, U+007F: no file system stores NUL, and a newline in a served path could
 * forge a match line), an absolute path, a backslash, and a {@code ..} segment.
 *
 * <p><b>Backslash.</b> On POSIX {@code \} is an ordinary file-name character, so translating it to
 * {@code /} would name a different file, and keeping it would let {@code a\..\b} mean different
 * things on different systems. It is therefore never translated and always rejected; the message
 * says that {@code /} is the separator.
 *
 * <p>Failures are {@link IllegalArgumentException}s whose message names the {@link Problem} and
 * quotes the input (except for a control character, which is never echoed). The index seam wraps
 * them into its contract's {@code IndexException} messages; it asks {@link #problem(String)} which
 * message applies.
 *
 * <table class="striped">
 *   <caption>Examples</caption>
 *   <thead><tr><th>Input</th><th>{@link #normalise}</th><th>{@link #normaliseScope}</th></tr></thead>
 *   <tbody>
 *   <tr><td>{@code src/a.java}</td><td>{@code src/a.java}</td><td>{@code src/a.java}</td></tr>
 *   <tr><td>{@code ./src/}, {@code src//./}</td><td>{@code src}</td><td>{@code src}</td></tr>
 *   <tr><td>{@code null}, {@code ""}</td><td>EMPTY</td><td>{@code null} (whole repository)</td></tr>
 *   <tr><td>{@code .}, {@code ./}, {@code .//.}</td><td>ROOT</td><td>{@code null}</td></tr>
 *   <tr><td>{@code /etc}</td><td>ABSOLUTE</td><td>ABSOLUTE</td></tr>
 *   <tr><td>{@code src\a.java}</td><td>BACKSLASH</td><td>BACKSLASH</td></tr>
 *   <tr><td>{@code ..}, {@code a/../b}</td><td>PARENT_SEGMENT</td><td>PARENT_SEGMENT</td></tr>
 *   <tr><td>a NUL or a newline</td><td>CONTROL_CHARACTER</td><td>CONTROL_CHARACTER</td></tr>
 *   </tbody>
 * </table>
 *
 * <p>A child named {@code ..foo} is an ordinary name and stays inside. The start path of a literal
 * {@code search}/{@code list}/{@code glob} request is not this rule: the reference resolves it like a
 * shell path (absolute paths inside the root, {@code ~}, {@code file://}), see
 * {@link RepositorySearchRequest#path()}.
 */
public final class RelativePath {

  /** Why a path is refused, in the order the checks run (the first failing check wins). */
  public enum Problem {
    /** {@code null} or empty. */
    EMPTY("is empty"),
    /** Holds a control character (U+0000..U+001F or U+007F). */
    CONTROL_CHARACTER("contains a control character"),
    /** Starts with {@code /} or is absolute for the platform. */
    ABSOLUTE("must be relative to the repository root, not absolute"),
    /** Holds a {@code \}. */
    BACKSLASH("contains a backslash; the separator is '/'"),
    /** Has a {@code ..} segment. */
    PARENT_SEGMENT("must stay inside the repository (no '..' segment)"),
    /** Normalises to nothing ({@code .}, {@code ./}): the root itself, not a file below it. */
    ROOT("names the repository root itself");

    private final String text;

    Problem(String text) {
      this.text = text;
    }

    /** The message of this problem for {@code path} ({@code what} is "path" or "path scope"). */
    String message(String what, @Nullable String path) {
      boolean quote = this != EMPTY && this != CONTROL_CHARACTER;
      return what + " " + text + (quote ? ": " + path : "");
    }
  }

  private RelativePath() {}

  /**
   * Normalises a caller's repository-relative path of a file or directory below the root: drops
   * {@code .} and empty segments.
   *
   * @return the canonical form, e.g. {@code src/a.java} for {@code ./src//a.java}
   * @throws IllegalArgumentException for every {@link Problem}, including {@link Problem#ROOT}
   */
  public static String normalise(@Nullable String path) {
    Problem problem = problem(path);
    if (problem != null) {
      throw new IllegalArgumentException(problem.message("path", path));
    }
    return normaliseSegments(path);
  }

  /**
   * Normalises a search scope (a directory or file the hits must lie in).
   *
   * @return the canonical scope, or {@code null} for the whole repository ({@code null}, {@code ""},
   *     {@code .}, {@code ./} and anything else that normalises to nothing)
   * @throws IllegalArgumentException for a control character, an absolute path, a backslash or a
   *     {@code ..} segment
   */
  public static @Nullable String normaliseScope(@Nullable String scope) {
    Problem problem = problem(scope);
    if (problem == null) {
      return normaliseSegments(scope);
    }
    if (problem == Problem.EMPTY || problem == Problem.ROOT) {
      return null;
    }
    throw new IllegalArgumentException(problem.message("path scope", scope));
  }

  /**
   * The first {@link Problem} {@link #normalise} would report for {@code path}, or {@code null}
   * when it normalises to a path below the root.
   */
  public static @Nullable Problem problem(@Nullable String path) {
    if (path == null || path.isEmpty()) {
      return Problem.EMPTY;
    }
    if (hasControlCharacter(path)) {
      return Problem.CONTROL_CHARACTER;
    }
    if (path.startsWith("/")) {
      return Problem.ABSOLUTE;
    }
    if (path.indexOf('\\') >= 0) {
      return Problem.BACKSLASH;
    }
    if (isPlatformAbsolute(path)) {
      return Problem.ABSOLUTE;
    }
    String segments = normaliseSegments(path);
    if (segments == null) {
      return Problem.PARENT_SEGMENT;
    }
    return segments.isEmpty() ? Problem.ROOT : null;
  }

  /**
   * Whether {@code path} is already canonical: non-empty {@code /}-separated segments, none of them
   * {@code .} or {@code ..}, no leading or trailing {@code /}, no backslash or control character,
   * not absolute. Backends must report paths in this form, so two spellings of one file can never
   * both be served.
   */
  public static boolean isCanonical(@Nullable String path) {
    return problem(path) == null && path.equals(normaliseSegments(path));
  }

  /**
   * Whether the canonical {@code path} equals the canonical {@code scope} or lies below it, compared
   * by whole segments ({@code src} holds {@code src/a} but not {@code srcx}); a {@code null} scope
   * holds every path.
   */
  public static boolean isInScope(@Nullable String scope, String path) {
    return scope == null
        || path.equals(scope)
        || (path.length() > scope.length() && path.startsWith(scope)
            && path.charAt(scope.length()) == '/');
  }

  /**
   * {@code path} with its empty and {@code .} segments dropped (the empty string when nothing is
   * left), or null when it has a {@code ..} segment: the one segment walk of the path rule.
   */
  private static @Nullable String normaliseSegments(String path) {
    StringBuilder out = new StringBuilder(path.length());
    int start = 0;
    int n = path.length();
    while (start <= n) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? n : slash;
      int length = end - start;
      if (length == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.') {
        return null;
      }
      if (length > 1 || (length == 1 && path.charAt(start) != '.')) {
        if (out.length() > 0) {
          out.append('/');
        }
        out.append(path, start, end);
      }
      start = end + 1;
    }
    return out.toString();
  }

  private static boolean isPlatformAbsolute(String path) {
    try {
      Path p = Path.of(path);
      // getRoot() also catches drive-relative forms such as "C:x" on Windows.
      return p.isAbsolute() || p.getRoot() != null;
    } catch (InvalidPathException notAPath) {
      return true;
    }
  }

  private static boolean hasControlCharacter(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return true;
      }
    }
    return false;
  }
}
