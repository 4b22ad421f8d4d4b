package dev.prismindex.index;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A batch of changes that brings the index to {@code sourceRevision}.
 *
 * <p>Through {@link IndexFacade#update} the batch is validated and normalised before a backend sees
 * it: renames become a {@link IndexFileChangeKind#DELETE} of the old path plus an
 * {@link IndexFileChangeKind#ADD} of the new one, and each path keeps only its last change, so a
 * backend receives ADD, EDIT and DELETE changes with distinct paths that it can apply in any order.
 *
 * @param repositoryId optional identity of the repository (at most 512 UTF-8 bytes)
 * @param worktreeId optional identity of the worktree (at most 512 UTF-8 bytes)
 * @param sourceRevision the revision the index reflects once the batch is applied (1..4 096 UTF-8
 *     bytes)
 * @param changes the changes, at most {@code maxUpdateFiles}
 */
public record IndexUpdateRequest(
    @Nullable String repositoryId,
    @Nullable String worktreeId,
    @Nullable String sourceRevision,
    @Nullable List<@Nullable IndexFileChange> changes) {

  /** A batch without repository or worktree identity. */
  public static IndexUpdateRequest of(String sourceRevision, List<IndexFileChange> changes) {
    return new IndexUpdateRequest(null, null, sourceRevision, changes);
  }
}
