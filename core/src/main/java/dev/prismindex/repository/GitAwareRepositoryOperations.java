package dev.prismindex.repository;

import java.nio.file.Path;

/** Literal operations over git's view of the tree (skeleton). */
final class GitAwareRepositoryOperations implements RepositoryOperations {
  private final Path root;
  private final GitAwareOptions options;

  GitAwareRepositoryOperations(Path root, GitAwareOptions options) {
    this.root = root;
    this.options = options;
  }

  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    throw new UnsupportedOperationException(root + " " + options);
  }

  @Override
  public RepositoryListResult list(RepositoryListRequest request) {
    throw new UnsupportedOperationException();
  }

  @Override
  public RepositoryGlobResult glob(RepositoryGlobRequest request) {
    throw new UnsupportedOperationException();
  }
}
