/**
 * Literal repository operations: {@code search}, {@code list} and {@code glob} over a working tree.
 *
 * <p>Entry point: {@link dev.prismindex.repository.RepositoryOperations#local(RepositoryLimits)} for a
 * plain bounded walk, or {@link dev.prismindex.repository.RepositoryOperations#gitAware(java.nio.file.Path,
 * GitAwareOptions)} for a walk that honours git's ignore rules exactly. Both return the same
 * vocabulary: requests ({@link dev.prismindex.repository.RepositorySearchRequest} and friends), results
 * that say whether and why they were truncated ({@link dev.prismindex.repository.TruncationReason}), and
 * a single error type, {@link dev.prismindex.repository.RepositoryException}.
 *
 * <p>Every operation is bounded: {@link dev.prismindex.repository.RepositoryLimits} caps depth, entries,
 * files, bytes scanned, matches, pattern and line length and wall time; an
 * {@link dev.prismindex.repository.AbortSignal} cancels. Symbolic links are never followed. Limits are
 * validated with {@link dev.prismindex.repository.CodingLimits}, which rejects instead of clamping.
 *
 * <p>The literal scanner is the trusted fallback of the index seam in {@link dev.prismindex.index}.
 */
@NullMarked
package dev.prismindex.repository;

import org.jspecify.annotations.NullMarked;
