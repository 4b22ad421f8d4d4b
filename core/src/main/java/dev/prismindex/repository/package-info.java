/**
 * Literal repository operations: {@code search}, {@code list} and {@code glob} over a working tree.
 *
 * <p><b>Entry points.</b> {@link dev.prismindex.repository.RepositoryOperations#local(RepositoryLimits)}
 * for a plain bounded walk, or
 * {@link dev.prismindex.repository.RepositoryOperations#gitAware(GitAwareOptions)}
 * for a walk that sees exactly what {@code git ls-files --cached --others --exclude-standard} sees
 * (falling back to the plain walk outside a work tree or without git), or
 * {@link dev.prismindex.repository.RepositoryOperations#listed(FileListing, RepositoryLimits)} over
 * the files a {@link dev.prismindex.repository.FileListing} names (the file-listing SPI, which the
 * engine implements with its index's walk; git's {@code ls-files} is core's own). All return the same
 * vocabulary: requests ({@link dev.prismindex.repository.RepositorySearchRequest} and friends),
 * results that say whether and why they were truncated
 * ({@link dev.prismindex.repository.TruncationReason}), and a single error type,
 * {@link dev.prismindex.repository.RepositoryException}; knobs outside their limits are
 * {@link java.lang.IllegalArgumentException}s worded by {@link dev.prismindex.repository.CodingLimits}.
 *
 * <p><b>How an operation runs.</b> The request's root is real-pathed and the optional start path
 * resolved inside it (a leading {@code @}, {@code ~}, {@code file://} URLs and absolute paths are
 * accepted when they stay inside; containment compares whole name components, so {@code ..foo} is a
 * child). A walk then enumerates entries breadth-first, by name in UTF-16 order within a directory,
 * never following symbolic links, skipping hidden and excluded names, and stopping at the entry,
 * file and depth limits. The plain walk reads directories; the git-aware walk builds the same tree
 * from {@code git ls-files} output and walks it the same way, so both give the same order and the
 * same pages. List and glob page over the walk with {@code offset}/{@code nextOffset}. Search first
 * enumerates, then scans the files in path order, so a result truncated by its match cap holds the
 * lexicographically first matches.
 *
 * <p><b>Globs.</b> {@link dev.prismindex.repository.GlobMatcher} is the one glob dialect
 * (gitignore's syntax) of prism-index: {@code glob} requests and the engine's filters use it.
 *
 * <p><b>Literal semantics.</b> {@link dev.prismindex.repository.LiteralPattern} is the one definition
 * of how a query matches a line (plain substring, case-insensitive by default, first occurrence,
 * 1-based UTF-16 column) and how bytes become numbered lines (LF, CRLF, final CR, malformed UTF-8,
 * overlong lines). Index backends answering {@code indexed_literal} queries should use it so their
 * answers equal the scanner's.
 *
 * <p><b>Bounds.</b> {@link dev.prismindex.repository.RepositoryLimits} caps depth, entries, files,
 * bytes scanned, matches, pattern and line length and wall time; an
 * {@link dev.prismindex.repository.AbortSignal} cancels. An abort or a deadline never throws: the
 * operation returns what it has, truncated by {@code abort} or {@code time}.
 *
 * <p>The literal scanner is the trusted fallback of the index seam in {@link dev.prismindex.index}.
 */
@NullMarked
package dev.prismindex.repository;

import org.jspecify.annotations.NullMarked;
