package dev.prismindex.index;

import dev.prismindex.internal.Utf8;
import dev.prismindex.repository.RelativePath;
import dev.prismindex.repository.RepositorySearchMatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Checks one backend hit and turns it into a served match. Split in two steps so that a duplicate can
 * be recognised (by its checked path) before the rest of it is inspected:
 *
 * <ol>
 *   <li>{@link #path}: the path is canonical ({@link RelativePaths#requireCanonical}) and lies inside
 *       the repository root, compared segment-wise (a child named {@code ..foo} is inside; with a
 *       canonical path this check cannot fail, it is kept as defence in depth), and it stays inside
 *       the root on the file system too: walking its segments from the root with {@code lstat}, every
 *       symbolic link met (a directory segment or the file itself) must resolve, by its real path,
 *       inside the root's real path (UNTRUSTED "index reported a path outside the repository root"
 *       otherwise, also for a link that cannot be resolved: dangling or a loop). A segment that does
 *       not exist ends the walk (nothing below it can lead out). When the root itself does not exist
 *       only the lexical check applies. Resolved directories are cached for the validator's search,
 *       so a result costs one {@code lstat} per distinct directory and file;
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
 * <p>No file is opened for a hit (it is served as untrusted text); only the containment check reads
 * file attributes and links.
 */
final class HitValidator {

  private final Path root;
  private final @Nullable String scope;
  private final int maxSnippetBytes;
  /** Root-relative directory -> its real location inside the root, or {@link #GONE}/{@link #OUT}. */
  private final Map<String, Path> resolved = new HashMap<>();
  private @Nullable Path realRoot;
  private boolean rootChecked;

  private static final Path GONE = Path.of("gone");
  private static final Path OUT = Path.of("out");

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
    if (!RelativePaths.isInside(root, path) || resolve(path) == OUT) {
      throw untrusted(IndexMessages.PATH_OUTSIDE_ROOT);
    }
    return path;
  }

  /**
   * Where a canonical root-relative path lies on the file system: its real location (links resolved)
   * when that is inside the root, {@link #GONE} when a segment cannot be read without following a
   * link (missing, below a segment that is now a regular file, not readable; or the root itself),
   * {@link #OUT} when a link leads outside the root or cannot be resolved (dangling, a loop).
   */
  private Path resolve(String path) {
    if (!rootChecked) {
      rootChecked = true;
      try {
        realRoot = root.toRealPath();
      } catch (IOException | SecurityException e) {
        realRoot = null;
      }
    }
    Path real = realRoot;
    if (real == null) {
      return GONE;
    }
    int slash = path.lastIndexOf('/');
    Path parent;
    if (slash < 0) {
      parent = real;
    } else {
      String dir = path.substring(0, slash);
      parent = resolved.get(dir);
      if (parent == null) {
        parent = resolve(dir);
        resolved.put(dir, parent);
      }
      if (parent == GONE || parent == OUT) {
        return parent;
      }
    }
    Path candidate = parent.resolve(path.substring(slash + 1));
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(candidate, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | SecurityException e) {
      // Missing, below a segment that is now a file, or not readable: nothing there to leave by.
      return GONE;
    }
    if (!a.isSymbolicLink()) {
      return candidate;
    }
    try {
      Path target = candidate.toRealPath();
      return target.startsWith(real) ? target : OUT;
    } catch (IOException | SecurityException e) {
      return OUT; // a link that cannot be resolved (dangling, a loop): never served
    }
  }

  /** Step 2: checks the rest of a hit whose path passed {@link #path} and builds the match. */
  RepositorySearchMatch match(IndexSearchHit hit, String path) {
    if (!RelativePath.isInScope(scope, path)) {
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
