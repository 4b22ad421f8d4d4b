/**
 * The index seam: how a host plugs a search index into repository search without ever trusting it.
 *
 * <p>Entry point: {@link dev.prismindex.index.IndexedRepositoryOperations#create(java.nio.file.Path,
 * IndexedRepositoryOptions)}. The composite it returns is a
 * {@link dev.prismindex.repository.RepositoryOperations}: {@code literal} searches go to the fallback
 * scanner; {@code indexed_literal} and {@code semantic} searches go to a
 * {@link dev.prismindex.index.RepositoryIndexBackend} only when the mode is allowed, the backend says it
 * can, and its {@link dev.prismindex.index.IndexStatus} attests a fresh, ready index. Every hit the
 * backend returns is validated (path, scope, score, location, snippet bound) before it is served, every
 * failure maps to a stable {@link dev.prismindex.index.IndexErrorCode}, and deadlines and
 * {@link dev.prismindex.repository.AbortSignal cancellation} are enforced by the composite itself.
 * There is never a silent fallback from an index mode to the literal scanner.
 *
 * <p>Updates go through {@link dev.prismindex.index.IndexFacade}, which bounds and validates a change
 * batch before the backend sees it. Backends implement {@link dev.prismindex.index.RepositoryIndexBackend};
 * the abstract {@code RepositoryIndexBackendContractTest} in this module's test jar is the behaviour
 * every backend must have.
 */
@NullMarked
package dev.prismindex.index;

import org.jspecify.annotations.NullMarked;
