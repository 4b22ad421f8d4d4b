package dev.prismindex.index;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test fixture: a controllable, recording {@link RepositoryIndexBackend}. Every answer is a field a
 * test can replace (including answers that throw, sleep, or return malformed data); every call is
 * counted and every request recorded.
 */
final class FakeBackend implements RepositoryIndexBackend {

  /** An answer that may throw anything, like a hostile backend. */
  @FunctionalInterface
  interface Answer<I, O> {
    O apply(I input) throws Exception;
  }

  /** A side effect that may throw anything. */
  @FunctionalInterface
  interface Action<I> {
    void accept(I input) throws Exception;
  }

  volatile Answer<Void, IndexCapabilities> capabilitiesAnswer = none -> IndexCapabilities.LITERAL_ONLY;
  volatile Answer<Void, IndexStatus> statusAnswer =
      none -> new IndexStatus(IndexState.READY, "rev-1", System.currentTimeMillis(), null);
  volatile Answer<IndexQuery, IndexQueryResult> searchAnswer =
      query -> new IndexQueryResult(List.of(), false);
  volatile Action<IndexUpdateRequest> updateAction = request -> { };
  volatile Action<IndexRemoveRequest> removeAction = request -> { };
  volatile Action<Void> disposeAction = none -> { };

  final List<IndexQuery> queries = new CopyOnWriteArrayList<>();
  final List<IndexUpdateRequest> updates = new CopyOnWriteArrayList<>();
  final List<IndexRemoveRequest> removes = new CopyOnWriteArrayList<>();
  final AtomicInteger capabilityCalls = new AtomicInteger();
  final AtomicInteger statusCalls = new AtomicInteger();
  final AtomicInteger disposeCalls = new AtomicInteger();

  /** A status that is ready, fresh and attests {@code revision}. */
  static IndexStatus ready(String revision) {
    return new IndexStatus(IndexState.READY, revision, System.currentTimeMillis(), null);
  }

  /** Makes {@link #search} answer with {@code hits} (not truncated). */
  FakeBackend hits(IndexSearchHit... hits) {
    List<IndexSearchHit> list = new ArrayList<>(List.of(hits));
    searchAnswer = query -> new IndexQueryResult(new ArrayList<>(list), false);
    return this;
  }

  /** Every call of any method, {@link #capabilities()} included. */
  int totalCalls() {
    return capabilityCalls.get() + statusCalls.get() + disposeCalls.get() + queries.size()
        + updates.size() + removes.size();
  }

  @Override
  public IndexCapabilities capabilities() {
    capabilityCalls.incrementAndGet();
    return call(capabilitiesAnswer, null);
  }

  @Override
  public void update(IndexUpdateRequest request) throws java.io.IOException {
    updates.add(request);
    run(updateAction, request);
  }

  @Override
  public void remove(IndexRemoveRequest request) throws java.io.IOException {
    removes.add(request);
    run(removeAction, request);
  }

  @Override
  public IndexQueryResult search(IndexQuery query) throws java.io.IOException {
    queries.add(query);
    return call(searchAnswer, query);
  }

  @Override
  public IndexStatus status() throws java.io.IOException {
    statusCalls.incrementAndGet();
    return call(statusAnswer, null);
  }

  @Override
  public void dispose() throws java.io.IOException {
    disposeCalls.incrementAndGet();
    run(disposeAction, null);
  }

  @SuppressWarnings("unchecked")
  private static <I, O> O call(Answer<I, O> answer, Object input) {
    try {
      return answer.apply((I) input);
    } catch (Exception e) {
      throw Sneaky.<RuntimeException>rethrow(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <I> void run(Action<I> action, Object input) {
    try {
      action.accept((I) input);
    } catch (Exception e) {
      throw Sneaky.<RuntimeException>rethrow(e);
    }
  }

  /** Rethrows checked exceptions unchanged, so the fake can throw exactly what a test asks for. */
  private static final class Sneaky {
    @SuppressWarnings("unchecked")
    static <T extends Throwable> RuntimeException rethrow(Throwable t) throws T {
      throw (T) t;
    }
  }
}
