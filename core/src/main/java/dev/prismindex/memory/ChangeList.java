package dev.prismindex.memory;

import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.repository.RelativePath;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A request's changes as a batch applies them: one kind per canonical path, renames split. */
final class ChangeList {

  private ChangeList() {
  }

  /**
   * The changes of an update, by path in request order: a RENAME becomes a DELETE of the old path
   * and an ADD of the new one; a path's last change wins.
   *
   * @throws IllegalArgumentException for a missing list, a change without a kind, or a path that
   *     is not canonical
   */
  static Map<String, IndexFileChangeKind> of(
      @Nullable List<@Nullable IndexFileChange> changes) {
    if (changes == null) {
      throw new IllegalArgumentException("changes are required");
    }
    Map<String, IndexFileChangeKind> byPath = new LinkedHashMap<>();
    for (IndexFileChange change : changes) {
      if (change == null || change.kind() == null) {
        throw new IllegalArgumentException("a change and its kind are required");
      }
      String path = requireCanonical(change.path());
      if (change.kind() == IndexFileChangeKind.RENAME) {
        String oldPath = requireCanonical(change.oldPath());
        byPath.remove(oldPath);
        byPath.put(oldPath, IndexFileChangeKind.DELETE);
        byPath.remove(path);
        byPath.put(path, IndexFileChangeKind.ADD);
      } else {
        byPath.remove(path);
        byPath.put(path, change.kind());
      }
    }
    return byPath;
  }

  private static String requireCanonical(@Nullable String path) {
    if (!RelativePath.isCanonical(path)) {
      throw new IllegalArgumentException("not a canonical repository-relative path");
    }
    return path;
  }

  /**
   * The deletions of {@code paths}, in order.
   *
   * @throws IllegalArgumentException for a path that is not canonical
   */
  static Map<String, IndexFileChangeKind> deletions(List<@Nullable String> paths) {
    Map<String, IndexFileChangeKind> changes = new LinkedHashMap<>();
    for (String path : paths) {
      changes.put(requireCanonical(path), IndexFileChangeKind.DELETE);
    }
    return changes;
  }
}
