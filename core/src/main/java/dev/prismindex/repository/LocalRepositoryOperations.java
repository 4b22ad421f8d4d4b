package dev.prismindex.repository;

/** Literal operations over a pluggable walk (skeleton). */
final class LocalRepositoryOperations implements RepositoryOperations {
  private final RepositoryLimits limits;
  private final Object walk;

  LocalRepositoryOperations(RepositoryLimits limits, Object walk) {
    this.limits = limits;
    this.walk = walk;
  }

  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    throw new UnsupportedOperationException(limits + " " + walk);
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
