package dev.prismindex.repository;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The options a listing ({@link RepositoryListRequest}) and a glob ({@link RepositoryGlobRequest})
 * share, for their builders: where the walk starts and what it enters, how deep, which page of the
 * results, and how it is stopped. Each setter returns the concrete builder.
 *
 * @param <B> the concrete builder
 */
abstract class WalkPageBuilder<B extends WalkPageBuilder<B>> {
  @Nullable String path;
  boolean includeHidden;
  @Nullable List<String> exclude;
  @Nullable Integer maxDepth;
  @Nullable Integer maxResults;
  @Nullable Integer offset;
  @Nullable AbortSignal signal;
  @Nullable Long deadlineMs;

  abstract B self();

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
