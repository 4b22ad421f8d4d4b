package dev.prismindex.index;

import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryGlobResult;
import dev.prismindex.repository.RepositoryListRequest;
import dev.prismindex.repository.RepositoryListResult;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import java.nio.file.Path;

/**
 * The composite of the index seam (skeleton; implemented in the foundation issue).
 */
public final class IndexedRepositoryOperations implements RepositoryOperations {

  private final Path root;
  private final IndexedRepositoryOptions options;

  private IndexedRepositoryOperations(Path root, IndexedRepositoryOptions options) {
    this.root = root.toAbsolutePath().normalize();
    this.options = options;
  }

  /** Creates the composite; nothing is started or called on the backend. */
  public static IndexedRepositoryOperations create(Path root, IndexedRepositoryOptions options) {
    return new IndexedRepositoryOperations(root, options);
  }

  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    throw new UnsupportedOperationException("not implemented yet: " + root + options);
  }

  @Override
  public RepositoryListResult list(RepositoryListRequest request) {
    return options.fallback().list(request);
  }

  @Override
  public RepositoryGlobResult glob(RepositoryGlobRequest request) {
    return options.fallback().glob(request);
  }

  /** The guarded update/remove/status/dispose facade over the backend. */
  public IndexFacade index() {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
