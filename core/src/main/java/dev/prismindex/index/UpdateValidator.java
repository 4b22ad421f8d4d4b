package dev.prismindex.index;

import dev.prismindex.internal.Utf8;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Validates and normalises what the host sends through the {@link IndexFacade}, completely, before a
 * backend sees any of it.
 *
 * <p>Update, in order (first failure wins):
 *
 * <ol>
 *   <li>{@code sourceRevision} non-empty and at most 4 096 UTF-8 bytes, else LIMIT "sourceRevision
 *       is required and bounded";
 *   <li>{@code repositoryId}, then {@code worktreeId}, when present, at most 512 UTF-8 bytes, else
 *       LIMIT "&lt;name&gt; exceeds the identity bound";
 *   <li>{@code changes} present and at most {@code maxUpdateFiles} long, else LIMIT "update exceeds
 *       the &lt;n&gt; change cap" (a missing list is treated like the reference treats a non-array);
 *   <li>a byte budget starts at the UTF-8 length of the revision plus both identities (the reference
 *       documents identities as counted but does not count them, weakness 8); over
 *       {@code maxUpdateBytes}: LIMIT "update exceeds the &lt;n&gt; byte cap";
 *   <li>per change, in order: a {@code null} change is UNTRUSTED "index reported an invalid path";
 *       its {@code path} passes the relative-path check; a {@code null} kind is UNTRUSTED "index
 *       reported an invalid change kind"; a rename needs an {@code oldPath} (UNTRUSTED "index
 *       reported an invalid path"); an {@code oldPath}, when present, passes the relative-path check;
 *       {@code bytes}, when present, is non-negative, else LIMIT "change bytes must be a non-negative
 *       finite number"; the raw UTF-8 lengths of {@code path} and {@code oldPath} are added to the
 *       budget and checked against the byte cap.
 * </ol>
 *
 * <p>The relative-path check here is the caller-side one ({@link RelativePaths#normalise}): {@code .}
 * and empty segments are dropped, {@code ..}, absolute paths and backslashes are rejected.
 *
 * <p>Normalisation: a rename becomes a DELETE of {@code oldPath} followed by an ADD of {@code path}
 * (keeping {@code bytes}); an {@code oldPath} on another kind is checked and counted, then dropped.
 * Then only the last change of each path survives, in the order of those last occurrences, so the
 * batch means what its order says ({@code add x, delete x} deletes x; {@code delete x, add x} adds
 * x). The result is one request whose changes have distinct paths and kinds ADD, EDIT or DELETE.
 *
 * <p>Remove: {@code paths} present and at most {@code maxUpdateFiles} long, else LIMIT "remove exceeds
 * the &lt;n&gt; path cap"; each path passes the caller-side relative-path check; duplicates (after
 * normalisation) are dropped.
 */
final class UpdateValidator {

  /** The reference's {@code MAX_IDENTITY_BYTES}. */
  static final int MAX_IDENTITY_BYTES = 512;

  private final IndexLimits limits;

  UpdateValidator(IndexLimits limits) {
    this.limits = limits;
  }

  /**
   * Returns the normalised request to send, or {@code null} when the batch has no change (then no
   * backend call is made).
   *
   * @throws IndexException LIMIT or UNTRUSTED as described in the class documentation
   */
  @Nullable IndexUpdateRequest validate(IndexUpdateRequest request) {
    String revision = request.sourceRevision();
    if (revision == null || revision.isEmpty()
        || Utf8.byteLength(revision) > FreshnessGate.MAX_REVISION_BYTES) {
      throw limit(IndexMessages.REVISION_BOUND);
    }
    long identityBytes = identityBytes("repositoryId", request.repositoryId())
        + identityBytes("worktreeId", request.worktreeId());
    List<@Nullable IndexFileChange> changes = request.changes();
    if (changes == null || changes.size() > limits.maxUpdateFiles()) {
      throw limit(IndexMessages.cap("update", limits.maxUpdateFiles(), "change"));
    }
    long budget = Utf8.byteLength(revision) + identityBytes;
    requireWithinByteCap(budget);

    Map<String, IndexFileChange> lastChangeByPath = new LinkedHashMap<>();
    for (IndexFileChange change : changes) {
      if (change == null) {
        throw untrusted(IndexMessages.INVALID_PATH);
      }
      String path = RelativePaths.normalise(change.path());
      IndexFileChangeKind kind = change.kind();
      if (kind == null) {
        throw untrusted(IndexMessages.INVALID_CHANGE_KIND);
      }
      String rawOldPath = change.oldPath();
      if (kind == IndexFileChangeKind.RENAME && rawOldPath == null) {
        throw untrusted(IndexMessages.INVALID_PATH);
      }
      String oldPath = rawOldPath == null ? null : RelativePaths.normalise(rawOldPath);
      Long bytes = change.bytes();
      if (bytes != null && bytes < 0) {
        throw limit(IndexMessages.CHANGE_BYTES);
      }
      budget += Utf8.byteLength(change.path());
      if (rawOldPath != null) {
        budget += Utf8.byteLength(rawOldPath);
      }
      requireWithinByteCap(budget);

      if (kind == IndexFileChangeKind.RENAME) {
        keepLast(lastChangeByPath, new IndexFileChange(oldPath, IndexFileChangeKind.DELETE, null, null));
        keepLast(lastChangeByPath, new IndexFileChange(path, IndexFileChangeKind.ADD, null, bytes));
      } else {
        keepLast(lastChangeByPath, new IndexFileChange(path, kind, null, bytes));
      }
    }
    if (lastChangeByPath.isEmpty()) {
      return null;
    }
    return new IndexUpdateRequest(request.repositoryId(), request.worktreeId(), revision,
        List.copyOf(lastChangeByPath.values()));
  }

  /**
   * Returns the normalised, de-duplicated paths to remove (possibly empty: then no backend call is
   * made).
   *
   * @throws IndexException LIMIT or UNTRUSTED as described in the class documentation
   */
  List<String> validate(IndexRemoveRequest request) {
    List<@Nullable String> paths = request.paths();
    if (paths == null || paths.size() > limits.maxUpdateFiles()) {
      throw limit(IndexMessages.cap("remove", limits.maxUpdateFiles(), "path"));
    }
    Set<String> normalised = new LinkedHashSet<>();
    for (String path : paths) {
      normalised.add(RelativePaths.normalise(path));
    }
    return List.copyOf(normalised);
  }

  private static long identityBytes(String name, @Nullable String identity) {
    if (identity == null) {
      return 0;
    }
    long bytes = Utf8.byteLength(identity);
    if (bytes > MAX_IDENTITY_BYTES) {
      throw limit(IndexMessages.identityBound(name));
    }
    return bytes;
  }

  private void requireWithinByteCap(long budget) {
    if (budget > limits.maxUpdateBytes()) {
      throw limit(IndexMessages.cap("update", limits.maxUpdateBytes(), "byte"));
    }
  }

  private static void keepLast(Map<String, IndexFileChange> byPath, IndexFileChange change) {
    // Removing first moves the path to the position of its last occurrence.
    byPath.remove(change.path());
    byPath.put(change.path(), change);
  }

  private static IndexException limit(String message) {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_LIMIT, message);
  }

  private static IndexException untrusted(String message) {
    return new IndexException(IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, message);
  }
}
