package dev.prismindex.index;

import dev.prismindex.internal.Utf8;
import dev.prismindex.repository.RepositorySearchMatch;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Checks one backend hit and turns it into a served match. Split in two steps so that a duplicate can
 * be recognised (by its checked path) before the rest of it is inspected:
 *
 * <ol>
 *   <li>{@link #path}: the path is canonical ({@link RelativePaths#requireCanonical}) and lies inside
 *       the repository root, compared segment-wise (a child named {@code ..foo} is inside; with a
 *       canonical path this check cannot fail, it is kept as defence in depth: UNTRUSTED "index
 *       reported a path outside the repository root");
 *   <li>{@link #match}: the path lies in the requested scope (UNTRUSTED "index reported a result
 *       outside the requested path scope"); the score is a finite number in [0, 1] (UNTRUSTED "index
 *       reported an invalid score"; {@code -0.0} is served as {@code 0.0}); the location is either
 *       unknown ({@code line == endLine == column == 0}) or {@code 1 <= line <= endLine} with
 *       {@code column >= 0}, where {@code endLine == 0} with a line means "one line" (UNTRUSTED
 *       "index reported an invalid location" for negatives, an inverted range, or an end line or
 *       column without a line); the snippet is present (UNTRUSTED "index reported a malformed
 *       result") and is cut to {@code maxSnippetBytes} UTF-8 bytes on a code-point boundary.
 * </ol>
 *
 * <p>Nothing touches the file system: a hit is served as untrusted text, no file is opened for it.
 */
final class HitValidator {

  private final Path root;
  private final @Nullable String scope;
  private final int maxSnippetBytes;

  /**
   * @param root the composite's absolute, normalised root
   * @param scope the normalised scope, {@code null} for the whole repository
   * @param maxSnippetBytes the snippet cap in UTF-8 bytes
   */
  HitValidator(Path root, @Nullable String scope, int maxSnippetBytes) {
    this.root = root;
    this.scope = scope;
    this.maxSnippetBytes = maxSnippetBytes;
  }

  /** Step 1: the hit's checked path (the key for de-duplication). */
  String path(IndexSearchHit hit) {
    String path = RelativePaths.requireCanonical(hit.path());
    if (!RelativePaths.isInside(root, path)) {
      throw untrusted(IndexMessages.PATH_OUTSIDE_ROOT);
    }
    return path;
  }

  /** Step 2: checks the rest of a hit whose path passed {@link #path} and builds the match. */
  RepositorySearchMatch match(IndexSearchHit hit, String path) {
    if (!RelativePaths.isInScope(scope, path)) {
      throw untrusted(IndexMessages.OUTSIDE_SCOPE);
    }
    double score = hit.score();
    if (!(score >= 0.0 && score <= 1.0)) { // also false for NaN
      throw untrusted(IndexMessages.INVALID_SCORE);
    }
    int line = hit.line();
    int endLine = hit.endLine();
    int column = hit.column();
    if (line < 0 || endLine < 0 || column < 0) {
      throw untrusted(IndexMessages.INVALID_LOCATION);
    }
    if (line == 0) {
      if (endLine != 0 || column != 0) {
        throw untrusted(IndexMessages.INVALID_LOCATION);
      }
    } else if (endLine == 0) {
      endLine = line;
    } else if (endLine < line) {
      throw untrusted(IndexMessages.INVALID_LOCATION);
    }
    String snippet = hit.snippet();
    if (snippet == null) {
      throw untrusted(IndexMessages.MALFORMED_RESULT);
    }
    String text = Utf8.truncateToBytes(snippet, maxSnippetBytes);
    return new RepositorySearchMatch(
        path, line, endLine, column, text, List.of(), List.of(), score + 0.0);
  }

  private static IndexException untrusted(String message) {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, message);
  }
}
