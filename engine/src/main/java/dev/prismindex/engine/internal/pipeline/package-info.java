/**
 * The indexing pipeline (internal; not an API): what one run does to each file, whatever store it
 * writes to.
 *
 * <p>{@link dev.prismindex.engine.internal.pipeline.Indexer} is the entry point: for each walked or
 * named path it compares the file with the manifest ({@link
 * dev.prismindex.engine.internal.pipeline.FileStat}: the one stat check, git's racy-timestamp
 * rule), reads it ({@link dev.prismindex.engine.internal.pipeline.FileReader}: bounded, binary and
 * minified detection, decoding), hashes it ({@link dev.prismindex.engine.internal.pipeline.Hashing}:
 * BLAKE3-256, natively or by commons-codec), chunks it and hands the documents to a {@link
 * dev.prismindex.engine.spi.DocumentSink}, on a bounded pool of workers ({@link
 * dev.prismindex.engine.internal.pipeline.FilePool}); {@link
 * dev.prismindex.engine.internal.pipeline.ChunkKeys} decides what a run does about its chunks'
 * vector keys. The transaction around a run (writer, commit, embedding phase) is package {@code
 * run}'s; how documents are stored is the sink's.
 */
@NullMarked
package dev.prismindex.engine.internal.pipeline;

import org.jspecify.annotations.NullMarked;
