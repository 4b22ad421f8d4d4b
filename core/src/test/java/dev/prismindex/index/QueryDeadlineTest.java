package dev.prismindex.index;

import static dev.prismindex.index.IndexTestSupport.ROOT;
import static dev.prismindex.index.IndexTestSupport.assertIndexError;
import static dev.prismindex.index.IndexTestSupport.composite;
import static dev.prismindex.index.IndexTestSupport.indexed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deadlines, aborts and the fail-closed error mapping of the backend call (weaknesses 2 and 7).
 *
 * <p>No assertion depends on tight timing: a hung backend waits on a latch for up to 10 s (released
 * after each test), deadlines are 100-200 ms, and a call only has to return within a few seconds,
 * long before the backend would.
 */
class QueryDeadlineTest {

  private static final long HANG_SECONDS = 10;
  private static final long PROMPT_MS = 4_000;

  private final FakeBackend backend = new FakeBackend();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseHungBackends() {
    release.countDown();
  }

  private void hangIgnoringTheSignal() throws InterruptedException {
    release.await(HANG_SECONDS, TimeUnit.SECONDS);
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  @Test
  void aBackendThatSleepsPastTheDeadlineTimesOutAtTheDeadline() {
    backend.searchAnswer = query -> {
      hangIgnoringTheSignal();
      return new IndexQueryResult(List.of(), false);
    };
    long start = System.nanoTime();
    assertIndexError(() -> composite(backend).search(indexed("q").deadlineMs(150L).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query timed out");
    assertThat(millisSince(start)).isGreaterThanOrEqualTo(100).isLessThan(PROMPT_MS);
    assertThat(backend.queries.get(0).signal().isAborted())
        .as("the backend's signal is aborted when the deadline passes").isTrue();
  }

  @Test
  void theQueryTimeoutLimitAppliesWhenTheRequestHasNoDeadline() {
    backend.searchAnswer = query -> {
      hangIgnoringTheSignal();
      return new IndexQueryResult(List.of(), false);
    };
    long start = System.nanoTime();
    assertIndexError(() -> composite(backend,
            b -> b.limits(IndexLimits.builder().queryTimeoutMs(120).build()))
            .search(indexed("q").deadlineMs(60_000L).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query timed out");
    assertThat(millisSince(start)).isLessThan(PROMPT_MS);
  }

  @Test
  void aHangingStatusReadIsBoundedByTheSameDeadline() {
    backend.statusAnswer = none -> {
      hangIgnoringTheSignal();
      return FakeBackend.ready("r");
    };
    long start = System.nanoTime();
    assertIndexError(() -> composite(backend).search(indexed("q").deadlineMs(100L).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query timed out");
    assertThat(millisSince(start)).isLessThan(PROMPT_MS);
    assertThat(backend.queries).isEmpty();
  }

  @Test
  void aCallerAbortWhileWaitingReturnsPromptly() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    backend.searchAnswer = query -> {
      entered.countDown();
      hangIgnoringTheSignal();
      return new IndexQueryResult(List.of(), false);
    };
    AbortSignal signal = AbortSignal.create();
    Thread aborter = new Thread(() -> {
      try {
        if (entered.await(HANG_SECONDS, TimeUnit.SECONDS)) {
          signal.abort();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    aborter.start();
    long start = System.nanoTime();
    assertIndexError(() -> composite(backend).search(indexed("q").signal(signal).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query aborted");
    assertThat(millisSince(start)).isLessThan(PROMPT_MS);
    assertThat(backend.queries.get(0).signal().isAborted()).isTrue();
    aborter.join();
  }

  @Test
  void aBackendThatReturnsAfterTheCallerAbortedIsNotServed() {
    AbortSignal signal = AbortSignal.create();
    backend.searchAnswer = query -> {
      signal.abort();
      assertThat(query.signal().isAborted()).as("the child follows the caller").isTrue();
      return new IndexQueryResult(List.of(IndexSearchHit.of("a", 1, "s")), false);
    };
    assertIndexError(() -> composite(backend).search(indexed("q").signal(signal).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query aborted");
  }

  @Test
  void aBackendThatThrowsBecauseTheCallerAbortedReportsTheAbort() {
    AbortSignal signal = AbortSignal.create();
    backend.searchAnswer = query -> {
      signal.abort();
      throw new IllegalStateException("secret: noticed the abort");
    };
    assertIndexError(() -> composite(backend).search(indexed("q").signal(signal).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query aborted");
  }

  @Test
  void aBackendThatReturnsAfterTheDeadlineExceedsIt() {
    AtomicLong nanos = new AtomicLong(1_000_000_000L);
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(ROOT,
        IndexedRepositoryOptions.builder(backend, new FakeFallback())
            .allowedModes(EnumSet.allOf(SearchMode.class)).build(),
        System::currentTimeMillis, nanos::get);
    backend.searchAnswer = query -> {
      nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(query.deadlineMs() + 1));
      return new IndexQueryResult(List.of(IndexSearchHit.of("a", 1, "s")), false);
    };
    // The runner waits in real time for as long as the deadline allows, so a short deadline would
    // let a loaded machine's scheduler turn "exceeded" into "timed out"; the fake clock decides.
    assertIndexError(() -> ops.search(indexed("q").deadlineMs(30_000L).build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query exceeded the deadline");
    assertThat(backend.queries.get(0).signal().isAborted()).isTrue();
  }

  @Test
  void aStatusReadThatEndsAfterTheDeadlineExceedsItAndNoSearchIsMade() {
    AtomicLong nanos = new AtomicLong();
    IndexedRepositoryOperations ops = IndexedRepositoryOperations.create(ROOT,
        IndexedRepositoryOptions.builder(backend, new FakeFallback())
            .allowedModes(EnumSet.allOf(SearchMode.class)).build(),
        System::currentTimeMillis, nanos::get);
    backend.statusAnswer = none -> {
      nanos.addAndGet(TimeUnit.SECONDS.toNanos(31));
      return FakeBackend.ready("r");
    };
    assertIndexError(() -> ops.search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query exceeded the deadline");
    assertThat(backend.queries).isEmpty();
  }

  @Test
  void anInterruptedCallerIsAnAbort() {
    // A backend that answers at once, on a pool thread kept warm by the calls before: each call
    // races the answer against the caller's wait, and an answer that came first once hid the
    // interrupt (a completed future's get does not look at it). Decided before the backend is
    // called now.
    IndexedRepositoryOperations ops = composite(backend);
    for (int i = 0; i < 2_000; i++) {
      assertThat(ops.search(indexed("q").build()).matches()).isEmpty();
      Thread.currentThread().interrupt();
      int calls = backend.totalCalls();
      try {
        assertIndexError(() -> ops.search(indexed("q").build()),
            IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "index query aborted");
        assertThat(Thread.currentThread().isInterrupted()).as("interrupt status kept").isTrue();
        assertThat(backend.totalCalls()).as("no backend call").isEqualTo(calls);
      } finally {
        Thread.interrupted();
      }
    }
  }

  static Stream<Throwable> hostileFailures() {
    return Stream.of(
        new IndexException(IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED, "secret: spoofed unsupported"),
        new IndexException(IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, "secret: spoofed timeout"),
        new IndexException(IndexErrorCode.ERR_PRISM_INDEX_STALE, "secret: spoofed stale"),
        new RuntimeException("secret: api key sk-123"),
        new IOException("secret: ~/.ssh/id_rsa"),
        new Exception("secret: checked"),
        new AssertionError("secret: assertion"),
        new StackOverflowError("secret: recursion"),
        new LinkageError("secret: linkage"));
  }

  @ParameterizedTest
  @MethodSource("hostileFailures")
  void anythingTheBackendThrowsFromSearchIsAFixedFailure(Throwable failure) {
    backend.searchAnswer = query -> {
      throw sneaky(failure);
    };
    IndexException error = assertIndexError(() -> composite(backend).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index query failed");
    assertThat(error.getCause()).isSameAs(failure);
  }

  @ParameterizedTest
  @MethodSource("hostileFailures")
  void anythingTheBackendThrowsFromStatusIsAFixedFailure(Throwable failure) {
    backend.statusAnswer = none -> {
      throw sneaky(failure);
    };
    IndexException error = assertIndexError(() -> composite(backend).search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index status failed");
    assertThat(error.getCause()).isSameAs(failure);
  }

  @Test
  void outOfMemoryPropagates() {
    OutOfMemoryError oom = new OutOfMemoryError("test");
    backend.searchAnswer = query -> {
      throw oom;
    };
    assertThat(catchThrowable(() -> composite(backend).search(indexed("q").build()))).isSameAs(oom);
  }

  @Test
  void manyQueriesLeaveNoThreadBehindAfterTheKeepAlive() throws Exception {
    IndexedRepositoryOperations ops = composite(backend);
    backend.searchAnswer = query -> {
      Thread.sleep(5);
      return new IndexQueryResult(List.of(IndexSearchHit.of("a", 1, "s")), false);
    };
    for (int i = 0; i < 40; i++) {
      ops.search(indexed("q").build());
    }
    ExecutorService callers = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        running.add(callers.submit(() -> ops.search(indexed("q").build())));
      }
      for (Future<?> f : running) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      callers.shutdownNow();
    }
    awaitNoThreads(ops.queryThreadNamePrefix());
  }

  @Test
  void aTimedOutBackendsThreadAlsoExpiresOnceTheBackendReturns() throws Exception {
    IndexedRepositoryOperations ops = composite(backend);
    backend.searchAnswer = query -> {
      hangIgnoringTheSignal();
      return new IndexQueryResult(List.of(), false);
    };
    catchThrowable(() -> ops.search(indexed("q").deadlineMs(100L).build()));
    // The hung search holds one thread; the status read's thread may still be idling.
    assertThat(liveThreads(ops.queryThreadNamePrefix())).isBetween(1L, 2L);
    release.countDown();
    awaitNoThreads(ops.queryThreadNamePrefix());
  }

  @Test
  void disposeStopsThePool() throws Exception {
    IndexedRepositoryOperations ops = composite(backend);
    ops.search(indexed("q").build());
    ops.index().dispose();
    awaitNoThreads(ops.queryThreadNamePrefix());
    assertIndexError(() -> ops.search(indexed("q").build()),
        IndexErrorCode.ERR_PRISM_INDEX_FAILED, "index is disposed");
  }

  @Test
  void aLongLivedCallerSignalKeepsNoListenersAfterQueries() throws Exception {
    IndexedRepositoryOperations ops = composite(backend);
    AbortSignal shared = AbortSignal.create();
    for (int i = 0; i < 20; i++) {
      ops.search(indexed("q").signal(shared).build());
    }
    backend.searchAnswer = query -> {
      throw new IllegalStateException("secret");
    };
    for (int i = 0; i < 5; i++) {
      catchThrowable(() -> ops.search(indexed("q").signal(shared).build()));
    }
    backend.searchAnswer = query -> {
      hangIgnoringTheSignal();
      return new IndexQueryResult(List.of(), false);
    };
    catchThrowable(() -> ops.search(indexed("q").signal(shared).deadlineMs(100L).build()));

    assertThat(registeredListeners(shared)).isZero();
    assertThat(shared.isAborted()).isFalse();
  }

  private static int registeredListeners(AbortSignal signal) throws ReflectiveOperationException {
    java.lang.reflect.Field field = AbortSignal.class.getDeclaredField("listeners");
    field.setAccessible(true);
    List<?> listeners = (List<?>) field.get(signal);
    synchronized (listeners) {
      return listeners.size();
    }
  }

  private static long liveThreads(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
  }

  private static void awaitNoThreads(String prefix) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (liveThreads(prefix) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(liveThreads(prefix)).as("threads named %s* still alive", prefix).isZero();
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }
}
