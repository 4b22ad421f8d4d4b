/**
 * The Lucene-free in-memory index: a real reference implementation of the index seam's backend SPI.
 * This package is <b>not exported</b> by the module.
 *
 * <h2>Entry point</h2>
 *
 * <p>Hosts use {@link dev.prismindex.index.InMemoryIndex#builder(java.nio.file.Path)} (exported),
 * which builds an {@link dev.prismindex.memory.InMemoryIndexBackend} that a host plugs into
 * {@link dev.prismindex.index.IndexedRepositoryOperations}. File content comes from an
 * {@link dev.prismindex.index.InMemoryIndex.ContentSource} (the working tree by default);
 * {@code semantic} vectors from any {@link dev.prismindex.embed.Embedder} (the dependency-free
 * {@link dev.prismindex.embed.HashingEmbedder} by default).
 * {@link dev.prismindex.index.InMemoryIndex.Stats} reports what it holds.
 *
 * <h2>How the pieces fit</h2>
 *
 * <pre>
 *   update ─► ContentSource.read ─► binary / size / hash-skip ─► SegmentWriter.write (new segment)
 *                                                               └► live bits of old copies (copy-on-write)
 *          ─► merge policy (SegmentWriter.merge) ─► new Snapshot, published by one volatile write
 *
 *   search ─► current Snapshot ─► indexed_literal: Candidates (gram postings) ─► LiteralPattern verify
 *                               └► semantic: quantised vectors ─► bounded top-k ─► best line
 * </pre>
 *
 * <ul>
 *   <li>{@code Segment}: an immutable, path-sorted batch of files: paths ({@code PathCodec} bytes),
 *       content bytes (as read, shared by merges), 16-byte content hashes, {@code Postings} of
 *       content and path grams, a {@code VectorStore}.
 *   <li>{@code Postings}: sorted trigram keys over case-folded text ({@code GramKeys}), each list a
 *       bitset or delta-varint bytes in one array; one- and two-character queries use key ranges.
 *   <li>{@code Snapshot} / {@code SegmentView}: the segments an index state consists of, with their
 *       live bits.
 *   <li>{@code MemoryLiteralSearcher}, {@code MemorySemanticSearcher}: the two query modes, each
 *       checking the query's abort signal.
 * </ul>
 *
 * <p>Everything but {@code InMemoryIndexBackend} (the implementation the exported builder creates)
 * is package-private.
 */
@NullMarked
package dev.prismindex.memory;

import org.jspecify.annotations.NullMarked;
