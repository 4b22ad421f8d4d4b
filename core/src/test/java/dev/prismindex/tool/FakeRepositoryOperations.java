package dev.prismindex.tool;

import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryGlobResult;
import dev.prismindex.repository.RepositoryListRequest;
import dev.prismindex.repository.RepositoryListResult;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Answers every search from a canned function and records the requests it received. */
final class FakeRepositoryOperations implements RepositoryOperations {

  final List<RepositorySearchRequest> requests = new ArrayList<>();
  private final Function<RepositorySearchRequest, RepositorySearchResult> answer;

  FakeRepositoryOperations(Function<RepositorySearchRequest, RepositorySearchResult> answer) {
    this.answer = answer;
  }

  /** Always returns {@code result}. */
  static FakeRepositoryOperations returning(RepositorySearchResult result) {
    return new FakeRepositoryOperations(request -> result);
  }

  /** Always throws {@code failure}. */
  static FakeRepositoryOperations throwing(RuntimeException failure) {
    return new FakeRepositoryOperations(request -> {
      throw failure;
    });
  }

  /** A complete literal result with the given matches and zero counters. */
  static RepositorySearchResult result(RepositorySearchMatch... matches) {
    return new RepositorySearchResult(List.of(matches), null, 0, 0, 0, 0, 0, null);
  }

  RepositorySearchRequest lastRequest() {
    return requests.get(requests.size() - 1);
  }

  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    requests.add(request);
    return answer.apply(request);
  }

  @Override
  public RepositoryListResult list(RepositoryListRequest request) {
    throw new UnsupportedOperationException("list");
  }

  @Override
  public RepositoryGlobResult glob(RepositoryGlobRequest request) {
    throw new UnsupportedOperationException("glob");
  }
}
