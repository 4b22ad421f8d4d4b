package dev.prismindex.index;

import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.RepositoryGlobRequest;
import dev.prismindex.repository.RepositoryGlobResult;
import dev.prismindex.repository.RepositoryLimits;
import dev.prismindex.repository.RepositoryListRequest;
import dev.prismindex.repository.RepositoryListResult;
import dev.prismindex.repository.RepositoryOperations;
import dev.prismindex.repository.RepositorySearchRequest;
import dev.prismindex.repository.RepositorySearchResult;
import dev.prismindex.repository.SearchMode;
import dev.prismindex.repository.SearchSink;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The composite of the index seam: {@link RepositoryOperations} that answer {@code literal} searches,
 * lists and globs with a trusted fallback and index-mode searches ({@code indexed_literal},
 * {@code lexical}, {@code semantic}, {@code hybrid}) with an untrusted {@link RepositoryIndexBackend}, plus the guarded {@link #index() facade} that updates
 * it. Thread-safe. Creating it starts nothing and calls nothing on the backend.
 *
 * <h2>Search, in order</h2>
 *
 * <ol>
 *   <li>{@code literal} (or no mode), and {@code regex}: {@code fallback.search(request)},
 *       unchanged; the backend is never touched. Lists and globs always go to the fallback, also
 *       after {@link IndexFacade#dispose()}.
 *   <li>Composite disposed: FAILED.
 *   <li>Mode not in {@link IndexedRepositoryOptions#allowedModes()}: UNSUPPORTED. Any mode but
 *       {@code indexed_literal} (which every backend answers) is then checked against the backend's
 *       {@link IndexCapabilities}: {@code semantic} or {@code hybrid} without the {@code semantic}
 *       capability, or a mode the backend does not declare (e.g. {@code lexical} on the in-memory
 *       backend): UNSUPPORTED.
 *   <li>The request's knobs: {@code maxMatches} (1..10 000) and {@code deadlineMs} (1..300 000, the
 *       literal search's range) are validated before any backend call, as plain
 *       {@link IllegalArgumentException}s (weakness 7). The served cap is
 *       {@code min(limits.maxResults, maxMatches ?? limits.maxResults)}; the time budget is
 *       {@code min(deadlineMs ?? queryTimeoutMs, queryTimeoutMs)} and starts now.
 *   <li>The caller's signal already aborted: TIMEOUT, and the backend is not called.
 *   <li>Freshness: {@code backend.status()} runs under the deadline, then {@link FreshnessGate}.
 *   <li>Scope: the request's {@code root} must be the composite's root (compared as absolute,
 *       normalised paths; otherwise index paths would be rooted differently from literal ones,
 *       weakness 12), and {@code path} is normalised by {@link RelativePaths#normaliseScope}.
 *   <li>{@code backend.search(...)} under the remaining deadline with a child signal
 *       ({@link QueryRunner}).
 *   <li>The hits are validated, de-duplicated and capped ({@link HitValidator}, {@link HitCollector}).
 * </ol>
 *
 * <p>A served result carries the validated path, {@code line}, {@code endLine}, {@code column} (0 when
 * unknown), the bounded snippet as {@code text}, the {@code score}, empty context, zero counters,
 * {@code truncatedBy = INDEX} or {@code null}, and the {@link IndexAttestation} of the status read.
 * There is never a silent fallback from an index mode to the literal scanner. The composite does not
 * compare the attested revision with the working tree (it cannot know it); a host that needs that
 * compares {@code result.indexed().sourceRevision()} with its own revision.
 *
 * <h2>Errors</h2>
 *
 * <p>Every failure is an {@link IndexException} with a fixed message (the backend's code and text are
 * never passed on; its exception is kept only as the cause), except the plain
 * {@link IllegalArgumentException}s of request knobs and an {@link OutOfMemoryError}, which propagates.
 * Messages marked <b>new</b> do not exist in the TypeScript reference.
 *
 * <table class="striped">
 *   <caption>Codes and messages</caption>
 *   <thead><tr><th>Code</th><th>Message</th><th>When</th></tr></thead>
 *   <tbody>
 *   <tr><td>(IllegalArgumentException)</td><td>maxMatches must be a positive safe integer at most
 *       10000</td><td>search: request {@code maxMatches} outside 1..10 000</td></tr>
 *   <tr><td>(IllegalArgumentException)</td><td>deadlineMs must be a positive safe integer at most
 *       300000</td><td>search: request {@code deadlineMs} outside 1..300 000 (<b>new</b>; the reference
 *       does not validate it)</td></tr>
 *   <tr><td>UNSUPPORTED</td><td>search mode &lt;mode&gt; is not enabled on this composite</td><td>mode
 *       not allowed</td></tr>
 *   <tr><td>UNSUPPORTED</td><td>semantic search is not supported by this index backend</td><td>semantic
 *       or hybrid on a backend without the capability (or with {@code null} capabilities)</td></tr>
 *   <tr><td>UNSUPPORTED</td><td>search mode &lt;mode&gt; is not supported by this index
 *       backend</td><td>(<b>new</b>) another mode the backend's capabilities do not declare (e.g.
 *       {@code lexical})</td></tr>
 *   <tr><td>TIMEOUT</td><td>index query aborted</td><td>the caller's signal is aborted before the
 *       status read, while waiting for the backend, or by the time it returns; or the calling
 *       thread is interrupted (before a call, the backend is not called)</td></tr>
 *   <tr><td>TIMEOUT</td><td>index query timed out</td><td>the deadline passes while waiting for the
 *       status read or the search (returned at the deadline, not when the backend returns)</td></tr>
 *   <tr><td>TIMEOUT</td><td>index query exceeded the deadline</td><td>the backend returned, but after
 *       the deadline</td></tr>
 *   <tr><td>FAILED</td><td>index status failed</td><td>{@code status()} threw</td></tr>
 *   <tr><td>FAILED</td><td>index reported an unknown state</td><td>{@code status()} returned
 *       {@code null} or a {@code null} state</td></tr>
 *   <tr><td>FAILED</td><td>index is failed; no search is served</td><td>state {@code failed}</td></tr>
 *   <tr><td>STALE</td><td>index has no data; update it before querying</td><td>state
 *       {@code empty}</td></tr>
 *   <tr><td>STALE</td><td>index is still building</td><td>state {@code building}</td></tr>
 *   <tr><td>STALE</td><td>index is stale; refresh it before querying</td><td>state {@code stale}
 *       (<b>refused</b>, unlike the reference), or {@code updatedAt} older than the stale
 *       window</td></tr>
 *   <tr><td>STALE</td><td>index does not attest a freshness timestamp</td><td>no {@code updatedAt}, or
 *       one more than the stale window in the future (<b>new</b> rule)</td></tr>
 *   <tr><td>STALE</td><td>index does not attest a source revision</td><td>{@code requireSourceRevision}
 *       and no revision (an empty or over-4 096-byte revision counts as none)</td></tr>
 *   <tr><td>UNTRUSTED</td><td>requested path scope is invalid</td><td>the scope is absolute, contains a
 *       {@code ..} segment, a backslash or a control character; or the request's root is not the
 *       composite's root (<b>new</b> rule)</td></tr>
 *   <tr><td>FAILED</td><td>index query failed</td><td>{@code search()} or {@code capabilities()} threw
 *       anything (including an {@code IndexException} of its own), or 128
 *       backend calls are already running</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported a malformed result</td><td>{@code null} result, hit list
 *       or hit; a hit list that fails to iterate; a {@code null} snippet</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported an invalid path</td><td>hit path {@code null}, empty or
 *       with a control character</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported a path outside the repository</td><td>hit path absolute,
 *       with a backslash, or with a {@code .}, {@code ..} or empty segment (so also {@code ./a},
 *       {@code a//b} and a trailing {@code /}: stricter than the reference)</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported a path outside the repository root</td><td>hit path not
 *       inside the root lexically (defence in depth; unreachable for a canonical path), or
 *       (<b>new</b>) leaving it on the file system: a symlinked directory segment or the file itself
 *       a link whose real path is outside the root's real path, or a link that cannot be resolved
 *       (see {@link HitValidator})</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported a result outside the requested path scope</td><td>hit
 *       neither equal to the scope nor below it</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported an invalid score</td><td>score NaN, infinite, &lt; 0 or
 *       &gt; 1</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported an invalid location</td><td>(<b>new</b>) a negative line,
 *       end line or column; end line before line; an end line or column without a line</td></tr>
 *   <tr><td>FAILED</td><td>index is disposed</td><td>(<b>new</b>) any index-mode search or facade
 *       call after {@link IndexFacade#dispose()}</td></tr>
 *   <tr><td>LIMIT</td><td>sourceRevision is required and bounded</td><td>update: revision missing,
 *       empty or over 4 096 UTF-8 bytes</td></tr>
 *   <tr><td>LIMIT</td><td>&lt;repositoryId|worktreeId&gt; exceeds the identity bound</td><td>update:
 *       identity over 512 UTF-8 bytes</td></tr>
 *   <tr><td>LIMIT</td><td>update exceeds the &lt;n&gt; change cap</td><td>update: more than
 *       {@code maxUpdateFiles} changes, or a {@code null} change list</td></tr>
 *   <tr><td>LIMIT</td><td>update exceeds the &lt;n&gt; byte cap</td><td>update: revision + identities
 *       + paths + old paths over {@code maxUpdateBytes} UTF-8 bytes (identities are counted: <b>new</b>)</td></tr>
 *   <tr><td>LIMIT</td><td>change bytes must be a non-negative finite number</td><td>update: negative
 *       {@code bytes}</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported an invalid path</td><td>update/remove: {@code null}
 *       change or path, empty path, control character, a path naming the root ({@code .}), a rename
 *       without {@code oldPath}</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported a path outside the repository</td><td>update/remove: path
 *       absolute, with a backslash or a {@code ..} segment ({@code ./a}, {@code a//b}, {@code a/} are
 *       normalised, not rejected)</td></tr>
 *   <tr><td>UNTRUSTED</td><td>index reported an invalid change kind</td><td>(<b>new</b>) update: a
 *       change without a kind</td></tr>
 *   <tr><td>FAILED</td><td>index update failed</td><td>{@code backend.update} threw</td></tr>
 *   <tr><td>LIMIT</td><td>remove exceeds the &lt;n&gt; path cap</td><td>remove: {@code null} list or
 *       more than {@code maxUpdateFiles} paths</td></tr>
 *   <tr><td>FAILED</td><td>index remove failed</td><td>{@code backend.remove} threw</td></tr>
 *   <tr><td>FAILED</td><td>index status failed / index reported an unknown state</td><td>facade
 *       {@code status()}, as for search</td></tr>
 *   <tr><td>FAILED</td><td>index dispose failed</td><td>{@code backend.dispose} threw (first call
 *       only; later calls do nothing)</td></tr>
 *   </tbody>
 * </table>
 *
 * <p>Facade calls run on the caller's thread without a deadline; only searches are time-bounded.
 */
public final class IndexedRepositoryOperations implements RepositoryOperations {

  private final Path root;
  private final IndexedRepositoryOptions options;
  private final RepositoryIndexBackend backend;
  private final FreshnessGate freshness;
  private final QueryRunner runner;
  private final AtomicBoolean disposed = new AtomicBoolean();
  private final GuardedIndexFacade facade;

  private IndexedRepositoryOperations(
      Path root, IndexedRepositoryOptions options, LongSupplier epochMillis, LongSupplier nanoTime) {
    this.root = root.toAbsolutePath().normalize();
    this.options = options;
    this.backend = options.index();
    this.freshness = new FreshnessGate(
        options.staleMaxAgeMs(), options.requireSourceRevision(), epochMillis);
    this.runner = new QueryRunner(nanoTime);
    this.facade = new GuardedIndexFacade(backend, options.limits(), disposed, runner::shutdown);
  }

  /**
   * Creates the composite over the repository at {@code root} (made absolute and normalised; hit
   * paths are relative to it). Nothing is started or called on the backend; the options were
   * validated when they were built.
   */
  public static IndexedRepositoryOperations create(Path root, IndexedRepositoryOptions options) {
    return create(root, options, System::currentTimeMillis, System::nanoTime);
  }

  /** Test seam: the same with injected clocks (epoch milliseconds and a monotonic nanosecond clock). */
  static IndexedRepositoryOperations create(
      Path root, IndexedRepositoryOptions options, LongSupplier epochMillis, LongSupplier nanoTime) {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(options, "options");
    return new IndexedRepositoryOperations(root, options, epochMillis, nanoTime);
  }

  /**
   * Streams a {@code literal} or {@code regex} search from the fallback; index modes are answered
   * as {@link #search} answers them, then handed over.
   */
  @Override
  public RepositorySearchResult stream(RepositorySearchRequest request, SearchSink sink) {
    Objects.requireNonNull(request, "request");
    if (request.effectiveMode().exact()) {
      return options.fallback().stream(request, sink);
    }
    return RepositoryOperations.super.stream(request, sink);
  }

  /**
   * Answers a {@code literal} search with the fallback and an index-mode search with the backend,
   * as described on this class.
   *
   * @throws IndexException for every refused or failed index-mode search (see the table above)
   * @throws IllegalArgumentException for a request {@code maxMatches} or {@code deadlineMs} outside
   *     its range
   * @throws dev.prismindex.repository.RepositoryException from the fallback, for literal searches
   */
  @Override
  public RepositorySearchResult search(RepositorySearchRequest request) {
    Objects.requireNonNull(request, "request");
    SearchMode mode = request.effectiveMode();
    if (mode.exact()) {
      return options.fallback().search(request);
    }
    if (disposed.get()) {
      throw GuardedIndexFacade.disposedError();
    }
    if (!options.allowedModes().contains(mode)) {
      throw new IndexException(
          IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED, IndexMessages.modeNotEnabled(mode.wireName()));
    }
    if (mode != SearchMode.INDEXED_LITERAL) {
      requireCapability(mode);
    }
    IndexLimits limits = options.limits();
    int maxResults = Math.min(limits.maxResults(), RepositoryLimits.requireMatches("maxMatches",
        request.maxMatches() == null ? limits.maxResults() : request.maxMatches()));
    long timeoutMs = Math.min(limits.queryTimeoutMs(), RepositoryLimits.requireTimeMs("deadlineMs",
        request.deadlineMs() == null ? limits.queryTimeoutMs() : request.deadlineMs()));
    AbortSignal callerSignal = request.signal();
    if (callerSignal != null && callerSignal.isAborted()) {
      throw new IndexException(IndexErrorCode.ERR_PRISM_INDEX_TIMEOUT, IndexMessages.QUERY_ABORTED);
    }
    try (QueryRunner.Session session = runner.open(callerSignal, timeoutMs)) {
      IndexStatus status = session.call(backend::status, IndexMessages.STATUS_FAILED);
      IndexAttestation attestation = freshness.admit(status, mode);
      if (!request.root().toAbsolutePath().normalize().equals(root)) {
        throw new IndexException(
            IndexErrorCode.ERR_PRISM_INDEX_UNTRUSTED, IndexMessages.INVALID_SCOPE);
      }
      String scope = RelativePaths.normaliseScope(request.path());
      IndexQuery query = new IndexQuery(request.query(), mode, scope, maxResults,
          request.caseSensitive(), session.signal(), session.remainingMs());
      IndexQueryResult result = session.call(() -> backend.search(query), IndexMessages.QUERY_FAILED);
      HitValidator validator = new HitValidator(root, scope, limits.maxSnippetBytes());
      return HitCollector.collect(result, validator, maxResults, attestation);
    }
  }

  /** Delegates to the fallback unchanged (also after the index is disposed). */
  @Override
  public RepositoryListResult list(RepositoryListRequest request) {
    return options.fallback().list(request);
  }

  /** Delegates to the fallback unchanged (also after the index is disposed). */
  @Override
  public RepositoryGlobResult glob(RepositoryGlobRequest request) {
    return options.fallback().glob(request);
  }

  /** The guarded update/remove/status/dispose facade over the backend. */
  public IndexFacade index() {
    return facade;
  }

  /** The name prefix of this composite's query threads (for tests that count them). */
  String queryThreadNamePrefix() {
    return runner.threadNamePrefix();
  }

  /**
   * Refuses a mode the backend does not declare: a mode needing semantic search on a backend without
   * {@code semantic} with the contract's message, any other undeclared mode with ours.
   */
  private void requireCapability(SearchMode mode) {
    IndexCapabilities capabilities;
    try {
      capabilities = backend.capabilities();
    } catch (Throwable failure) {
      throw GuardedIndexFacade.failed(IndexMessages.QUERY_FAILED, failure);
    }
    if (mode.needsSemantic() && (capabilities == null || !capabilities.semantic())) {
      throw new IndexException(
          IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED, IndexMessages.SEMANTIC_UNSUPPORTED);
    }
    if (capabilities == null || !capabilities.answers(mode)) {
      throw new IndexException(IndexErrorCode.ERR_PRISM_INDEX_UNSUPPORTED,
          IndexMessages.modeUnsupported(mode.wireName()));
    }
  }
}
