package dev.prismindex.index;

import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryGlobResult;
import dev.prismindex.repository.RepositoryListRequest;
import dev.prismindex.repository.RepositoryListResult;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test fixture: literal operations that record their requests and answer with fixed results (the real
 * local scanner is implemented elsewhere).
 */
final class FakeFallback implements RepositoryOperations {

  static final RepositorySearchResult SEARCH_RESULT = new RepositorySearchResult(
      List.of(new RepositorySearchMatch("lit.txt", 1, 1, 1, "literal", List.of(), List.of(), null)),
      null, 7, 1, 1, 0, 0, null);
  static final RepositoryListResult LIST_RESULT = new RepositoryListResult(List.of(), null, 0, 0, null, 0);
  static final RepositoryGlobResult GLOB_RESULT =
      new RepositoryGlobResult(List.of("lit.txt"), null, 1, 1, null, 0);

  final List<Object> requests = new CopyOnWriteArrayList<>();

  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    requests.add(request);
    return SEARCH_RESULT;
  }

  @Override
  public RepositoryListResult list(RepositoryListRequest request) {
    requests.add(request);
    return LIST_RESULT;
  }

  @Override
  public RepositoryGlobResult glob(RepositoryGlobRequest request) {
    requests.add(request);
    return GLOB_RESULT;
  }
}
