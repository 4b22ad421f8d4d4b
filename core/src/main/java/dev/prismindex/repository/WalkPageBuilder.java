package dev.prismindex.repository;

import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The options of a listing ({@link RepositoryListRequest}), which a glob
 * ({@link RepositoryGlobRequest#listing()}) shares, for their builders: where the walk starts and
 * what it enters, how deep, which page of the results, and how it is stopped. Each setter returns
 * the concrete builder.
 *
 * @param <B> the concrete builder
 */
abstract class WalkPageBuilder<B extends WalkPageBuilder<B>> {
  private final Path root;
  private @Nullable String path;
  private boolean includeHidden;
  private @Nullable List<String> exclude;
  private @Nullable Integer maxDepth;
  private @Nullable Integer maxResults;
  private @Nullable Integer offset;
  private @Nullable AbortSignal signal;
  private @Nullable Long deadlineMs;

  WalkPageBuilder(Path root) {
    this.root = root;
  }

  abstract B self();

  /** The listing these options describe. */
  final RepositoryListRequest listing() {
    return new RepositoryListRequest(root, path, includeHidden, exclude, maxDepth, maxResults,
        offset, signal, deadlineMs);
  }

  public B path(@Nullable String value) {
    this.path = value;
    return self();
  }

  public B includeHidden(boolean value) {
    this.includeHidden = value;
    return self();
  }

  public B exclude(@Nullable List<String> value) {
    this.exclude = value;
    return self();
  }

  public B maxDepth(@Nullable Integer value) {
    this.maxDepth = value;
    return self();
  }

  public B maxResults(@Nullable Integer value) {
    this.maxResults = value;
    return self();
  }

  public B offset(@Nullable Integer value) {
    this.offset = value;
    return self();
  }

  public B signal(@Nullable AbortSignal value) {
    this.signal = value;
    return self();
  }

  public B deadlineMs(@Nullable Long value) {
    this.deadlineMs = value;
    return self();
  }
}
