package dev.prismindex.index;

import java.io.IOException;

/**
 * The service-provider interface of a repository index (in-memory, on-disk, or remote).
 *
 * <p>The composite ({@link IndexedRepositoryOperations}) treats every answer of a backend as untrusted
 * and every exception as an opaque failure: a backend cannot choose the error code or message the
 * caller sees. Calls may arrive concurrently; a search that overlaps an update must see a consistent
 * snapshot. Methods are synchronous; the composite enforces deadlines and cancellation and passes the
 * abort signal in the {@link IndexQuery}, which a backend should honour.
 *
 * <p>{@link #status()} and {@link #search(IndexQuery)} are called on short-lived threads owned by the
 * composite (named {@code prism-index-query-*}), which are never interrupted: when the caller gives up
 * or the deadline passes, the query's signal is aborted and the composite stops waiting, but the call
 * keeps its thread until it returns. A backend should therefore check the signal in long loops and
 * return (or throw) soon after it is aborted. Facade calls ({@link #update}, {@link #remove},
 * {@link #status()} through the facade, {@link #dispose()}) run on the caller's thread.
 *
 * <p>The behaviour every backend must have is the abstract {@code RepositoryIndexBackendContractTest}
 * in this module's test jar.
 */
public interface RepositoryIndexBackend {

  /**
   * What this backend answers: {@code indexed_literal} always, other index modes only when declared.
   * The composite never sends a mode that is not declared here.
   */
  IndexCapabilities capabilities();

  /**
   * Applies a validated batch (kinds ADD, EDIT and DELETE, distinct paths) and records its
   * {@code sourceRevision}, including for a batch that only deletes.
   */
  void update(IndexUpdateRequest request) throws IOException;

  /** Drops the given paths (an empty list is allowed and changes nothing). */
  void remove(IndexRemoveRequest request) throws IOException;

  /**
   * Answers a query with at most {@code query.maxResults()} hits, best first: at most one hit per path,
   * each inside {@code query.scope()}, with a score in [0, 1], and {@code truncated} set exactly when
   * further matching paths exist.
   */
  IndexQueryResult search(IndexQuery query) throws IOException;

  /** Reports state, attested revision and timestamp, and diagnostics. */
  IndexStatus status() throws IOException;

  /** Releases every resource; later calls may fail. */
  void dispose() throws IOException;
}
