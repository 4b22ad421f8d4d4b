/**
 * The Lucene-free in-memory index: a real reference implementation of the index seam's backend SPI.
 *
 * <h2>Entry point</h2>
 *
 * <p>{@link dev.prismindex.memory.InMemoryIndexBackend#builder(java.nio.file.Path)} builds a
 * {@link dev.prismindex.index.RepositoryIndexBackend} that a host plugs into
 * {@link dev.prismindex.index.IndexedRepositoryOperations}. File content comes from a
 * {@link dev.prismindex.memory.ContentSource} (the working tree by default); {@code semantic} vectors
 * from any {@link dev.prismindex.embed.Embedder} (the dependency-free
 * {@link dev.prismindex.embed.HashingEmbedder} by default). {@link
 * dev.prismindex.memory.InMemoryIndexStats} reports what it holds.
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
 *   <li>{@code Postings}: sorted trigram keys over case-folded text ({@code Grams}), each list a
 *       bitset or delta-varint bytes in one array; one- and two-character queries use key ranges.
 *   <li>{@code Snapshot} / {@code SegmentView}: the segments an index state consists of, with their
 *       live bits.
 *   <li>{@code LiteralSearcher}, {@code SemanticSearcher}: the two query modes, each checking the
 *       query's abort signal.
 * </ul>
 *
 * <p>Everything but the entry point, the content source and the stats is package-private.
 */
@NullMarked
package dev.prismindex.memory;

import org.jspecify.annotations.NullMarked;
