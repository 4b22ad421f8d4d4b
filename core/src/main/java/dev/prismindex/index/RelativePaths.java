package dev.prismindex.index;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The relative-path rules of the seam. Two strictness levels:
 *
 * <ul>
 *   <li><b>Canonical</b> ({@link #requireCanonical}): for paths a backend reports. The path must be
 *       exactly how the composite would spell it: non-empty {@code /}-separated segments, none of them
 *       {@code .} or {@code ..}, no leading or trailing {@code /}, no {@code \}. Anything else is
 *       "outside the repository" (stricter than the reference's lexical check, weakness 5: it rejects
 *       {@code a/..}, {@code ./a}, {@code a//b} and {@code a/}, so two spellings of one file can
 *       never both be served).
 *   <li><b>Normalised</b> ({@link #normalise}, {@link #normaliseScope}): for paths a caller (the host)
 *       supplies. {@code .} and empty segments are dropped ({@code ./src/} becomes {@code src}); a
 *       {@code ..} segment, a backslash or an absolute path is still rejected.
 * </ul>
 *
 * <p>Both reject control characters (U+0000..U+001F, U+007F): no file system stores NUL, and a newline
 * in a served path could forge a match line in rendered output.
 */
final class RelativePaths {

  private RelativePaths() {}

  /**
   * Checks a backend-reported path and returns it (it is already canonical).
   *
   * @throws IndexException UNTRUSTED "index reported an invalid path" (null, empty, control
   *     characters) or "index reported a path outside the repository" (anything not canonical)
   */
  static String requireCanonical(@Nullable String path) {
    requireNonBlankText(path);
    if (isAbsoluteOrBackslashed(path)) {
      throw untrusted(IndexMessages.PATH_OUTSIDE_REPOSITORY);
    }
    int start = 0;
    int n = path.length();
    while (start <= n) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? n : slash;
      if (isDotSegmentOrEmpty(path, start, end)) {
        throw untrusted(IndexMessages.PATH_OUTSIDE_REPOSITORY);
      }
      start = end + 1;
    }
    return path;
  }

  /**
   * Normalises a host-supplied path for an update or removal: drops {@code .} and empty segments.
   *
   * @throws IndexException UNTRUSTED "index reported an invalid path" (null, empty, control
   *     characters, or a path that names the root itself) or "index reported a path outside the
   *     repository" (absolute, backslash, a {@code ..} segment)
   */
  static String normalise(@Nullable String path) {
    requireNonBlankText(path);
    String normalised = normaliseSegments(path, IndexMessages.PATH_OUTSIDE_REPOSITORY);
    if (normalised.isEmpty()) {
      throw untrusted(IndexMessages.INVALID_PATH);
    }
    return normalised;
  }

  /**
   * Normalises the caller's search scope. {@code null}, {@code ""}, {@code .} and {@code ./} (and
   * anything else that normalises to nothing) mean the whole repository and give {@code null}.
   *
   * @throws IndexException UNTRUSTED "requested path scope is invalid" for an absolute path, a
   *     backslash, a {@code ..} segment or a control character
   */
  static @Nullable String normaliseScope(@Nullable String scope) {
    if (scope == null || scope.isEmpty()) {
      return null;
    }
    if (hasControlCharacter(scope)) {
      throw untrusted(IndexMessages.INVALID_SCOPE);
    }
    String normalised = normaliseSegments(scope, IndexMessages.INVALID_SCOPE);
    return normalised.isEmpty() ? null : normalised;
  }

  /**
   * Whether {@code path} (canonical) lies inside {@code root}, compared segment-wise, so a child
   * named {@code ..foo} is inside.
   */
  static boolean isInside(Path root, String path) {
    try {
      return root.resolve(path).normalize().startsWith(root);
    } catch (InvalidPathException notAPath) {
      return false;
    }
  }

  /** Whether {@code path} equals {@code scope} or lies below it; a {@code null} scope holds all. */
  static boolean isInScope(@Nullable String scope, String path) {
    return scope == null
        || path.equals(scope)
        || (path.length() > scope.length() && path.startsWith(scope)
            && path.charAt(scope.length()) == '/');
  }

  private static String normaliseSegments(String path, String outsideMessage) {
    if (isAbsoluteOrBackslashed(path)) {
      throw untrusted(outsideMessage);
    }
    StringBuilder out = new StringBuilder(path.length());
    int start = 0;
    int n = path.length();
    while (start <= n) {
      int slash = path.indexOf('/', start);
      int end = slash < 0 ? n : slash;
      int length = end - start;
      boolean skip = length == 0 || (length == 1 && path.charAt(start) == '.');
      if (length == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.') {
        throw untrusted(outsideMessage);
      }
      if (!skip) {
        if (out.length() > 0) {
          out.append('/');
        }
        out.append(path, start, end);
      }
      start = end + 1;
    }
    return out.toString();
  }

  private static void requireNonBlankText(@Nullable String path) {
    if (path == null || path.isEmpty() || hasControlCharacter(path)) {
      throw untrusted(IndexMessages.INVALID_PATH);
    }
  }

  private static boolean isAbsoluteOrBackslashed(String path) {
    if (path.startsWith("/") || path.indexOf('\\') >= 0) {
      return true;
    }
    try {
      Path p = Path.of(path);
      // getRoot() also catches drive-relative forms such as "C:x" on Windows.
      return p.isAbsolute() || p.getRoot() != null;
    } catch (InvalidPathException notAPath) {
      return true;
    }
  }

  private static boolean isDotSegmentOrEmpty(String path, int start, int end) {
    int length = end - start;
    return length == 0
        || (length == 1 && path.charAt(start) == '.')
        || (length == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.');
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

  private static IndexException untrusted(String message) {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, message);
  }
}
