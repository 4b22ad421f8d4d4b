/**
 * The index seam: how a host plugs a search index into repository search without ever trusting it.
 *
 * <h2>Entry point</h2>
 *
 * <p>{@link dev.prismindex.index.IndexedRepositoryOperations#create(java.nio.file.Path,
 * IndexedRepositoryOptions)} returns a composite that is a
 * {@link dev.prismindex.repository.RepositoryOperations}. Configure it with
 * {@link dev.prismindex.index.IndexedRepositoryOptions#builder(RepositoryIndexBackend,
 * dev.prismindex.repository.RepositoryOperations) IndexedRepositoryOptions.builder(backend, fallback)}:
 * the backend answers index modes, the fallback (a literal scanner) answers everything else, index
 * modes must be enabled explicitly, and {@link dev.prismindex.index.IndexLimits} bound everything.
 *
 * <h2>How a search flows</h2>
 *
 * <pre>
 *   request ──literal──────────────────────────────────────────────► fallback.search (unchanged)
 *      │
 *      └─indexed_literal / semantic
 *           1. allowed mode? semantic capability?            no ► UNSUPPORTED
 *           2. maxMatches, deadlineMs valid?                 no ► IllegalArgumentException
 *           3. caller already aborted?                      yes ► TIMEOUT (backend never called)
 *           4. backend.status() ► FreshnessGate             ─── ► FAILED / STALE
 *           5. scope (root + path) normalised               bad ► UNTRUSTED
 *           6. backend.search() on a QueryRunner thread    late ► TIMEOUT, throws ► FAILED
 *           7. HitCollector + HitValidator: every kept hit checked, dupes dropped, cap, truncation
 *           8. RepositorySearchResult with an IndexAttestation
 * </pre>
 *
 * <p>The pieces, all package-private and each named after what it checks:
 *
 * <ul>
 *   <li>{@code FreshnessGate}: state, timestamp window (past and future), required revision.
 *   <li>{@code RelativePaths}: the path rules. Backend paths must be canonical ({@code a/b}, never
 *       {@code ./a}, {@code a//b}, {@code a/..}); caller paths (scope, update and remove paths) are
 *       normalised ({@code ./src/} is {@code src}) but never allowed to climb ({@code ..}), be
 *       absolute or contain a backslash.
 *   <li>{@code HitValidator}: one hit's path, containment, scope, score, location and snippet bound.
 *   <li>{@code HitCollector}: the loop over hits: de-duplication (first wins, no cap consumed, no
 *       truncation), the cap, and {@code truncatedBy = INDEX} only when more really exists.
 *   <li>{@code QueryRunner}: runs backend calls under the deadline on short-lived daemon threads,
 *       wakes the caller at the deadline or on abort, and hands the backend a child
 *       {@link dev.prismindex.repository.AbortSignal} that is aborted when the caller gives up.
 *   <li>{@code UpdateValidator} and {@code GuardedIndexFacade}: the {@link
 *       dev.prismindex.index.IndexFacade} (update, remove, status, dispose).
 * </ul>
 *
 * <h2>Trust</h2>
 *
 * <p>A backend is untrusted. It cannot choose the error a caller sees (every exception it throws
 * becomes a fixed FAILED message, every malformed answer a fixed UNTRUSTED message), cannot serve a
 * path outside the repository or the requested scope, a score outside [0, 1], an inverted location or
 * an unbounded snippet, and cannot hold a caller past the deadline. There is never a silent fallback
 * from an index mode to the literal scanner. The full table of codes and messages is on
 * {@link dev.prismindex.index.IndexedRepositoryOperations}.
 *
 * <h2>Updating</h2>
 *
 * <p>Hosts change the index through {@link dev.prismindex.index.IndexedRepositoryOperations#index()}.
 * The facade validates a whole batch first (revision and identity bounds, change cap, byte budget,
 * relative paths, rename sources), then normalises it (renames become delete + add; the last change of
 * each path wins) and makes one {@code backend.update} call, so a backend only ever sees ADD, EDIT and
 * DELETE changes with distinct paths and always learns the new source revision.
 *
 * <h2>Writing a backend</h2>
 *
 * <p>Implement {@link dev.prismindex.index.RepositoryIndexBackend} and subclass the abstract
 * {@code RepositoryIndexBackendContractTest} from this module's test jar: it is the behaviour every
 * backend must have (state machine, updates read from the repository, case rules, scope, cap,
 * locations and snippets that survive the composite's validation, capabilities, dispose).
 */
@NullMarked
package dev.prismindex.index;

import org.jspecify.annotations.NullMarked;
