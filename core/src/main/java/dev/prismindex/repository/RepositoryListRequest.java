package dev.prismindex.repository;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A page of the breadth-first listing below a start path. Build with {@link #builder(Path)}.
 *
 * @param root the workspace root; every result path is relative to it
 * @param path optional start below the root
 * @param includeHidden whether names starting with {@code .} are listed
 * @param exclude base names never entered; {@code null} uses the limits' list
 * @param maxDepth deepest level listed (1..128)
 * @param maxResults page size (1..10 000)
 * @param offset entries skipped before the page starts (0..100 000)
 * @param signal cancels the listing; what was collected is returned, truncated
 * @param deadlineMs wall-clock budget in milliseconds (1..300 000)
 */
public record RepositoryListRequest(
    Path root,
    @Nullable String path,
    boolean includeHidden,
    @Nullable List<String> exclude,
    @Nullable Integer maxDepth,
    @Nullable Integer maxResults,
    @Nullable Integer offset,
    @Nullable AbortSignal signal,
    @Nullable Long deadlineMs) {

  public RepositoryListRequest {
    Objects.requireNonNull(root, "root");
    exclude = exclude == null ? null : List.copyOf(exclude);
  }

  /** Starts a listing of {@code root}. */
  public static Builder builder(Path root) {
    return new Builder(root);
  }

  /** Builds a {@link RepositoryListRequest}. */
  public static final class Builder extends WalkPageBuilder<Builder> {

    private Builder(Path root) {
      super(root);
    }

    @Override
    Builder self() {
      return this;
    }

    public RepositoryListRequest build() {
      return listing();
    }
  }
}
