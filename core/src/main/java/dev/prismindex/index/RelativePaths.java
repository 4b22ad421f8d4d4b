package dev.prismindex.index;

import dev.prismindex.repository.RelativePath;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The seam's adapter over {@link RelativePath}, the one path rule: it applies the rule and words
 * every failure as the contract's {@link IndexException} (code UNTRUSTED). Two strictness levels:
 *
 * <ul>
 *   <li><b>Canonical</b> ({@link #requireCanonical}): for paths a backend reports
 *       ({@link RelativePath#isCanonical}). Anything else is "outside the repository" (stricter than
 *       the reference's lexical check, weakness 5: it rejects {@code a/..}, {@code ./a},
 *       {@code a//b} and {@code a/}, so two spellings of one file can never both be served).
 *   <li><b>Normalised</b> ({@link #normalise}, {@link #normaliseScope}): for paths a caller (the host)
 *       supplies ({@link RelativePath#normalise}, {@link RelativePath#normaliseScope}): {@code ./src/}
 *       becomes {@code src}; a {@code ..} segment, a backslash or an absolute path is rejected.
 * </ul>
 *
 * <p>Both reject control characters as an invalid path.
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
    RelativePath.Problem problem = RelativePath.problem(path);
    if (problem == RelativePath.Problem.EMPTY
        || problem == RelativePath.Problem.CONTROL_CHARACTER) {
      throw untrusted(IndexMessages.INVALID_PATH);
    }
    if (!RelativePath.isCanonical(path)) {
      throw untrusted(IndexMessages.PATH_OUTSIDE_REPOSITORY);
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
    RelativePath.Problem problem = RelativePath.problem(path);
    if (problem == null) {
      return RelativePath.normalise(path);
    }
    switch (problem) {
      case EMPTY:
      case CONTROL_CHARACTER:
      case ROOT:
        throw untrusted(IndexMessages.INVALID_PATH);
      default:
        throw untrusted(IndexMessages.PATH_OUTSIDE_REPOSITORY);
    }
  }

  /**
   * Normalises the caller's search scope. {@code null}, {@code ""}, {@code .} and {@code ./} (and
   * anything else that normalises to nothing) mean the whole repository and give {@code null}.
   *
   * @throws IndexException UNTRUSTED "requested path scope is invalid" for an absolute path, a
   *     backslash, a {@code ..} segment or a control character
   */
  static @Nullable String normaliseScope(@Nullable String scope) {
    try {
      return RelativePath.normaliseScope(scope);
    } catch (IllegalArgumentException invalid) {
      throw untrusted(IndexMessages.INVALID_SCOPE);
    }
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

  private static IndexException untrusted(String message) {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, message);
  }
}
