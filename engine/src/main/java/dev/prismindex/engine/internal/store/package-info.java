/**
 * The local Lucene store (internal; not an API): one repository's index as one Lucene directory
 * under the index home, and everything that knows how the engine's documents sit in it.
 *
 * <p>It owns: the directory, the searcher over the last commit, corruption detection and the
 * per-run writers ({@link dev.prismindex.engine.internal.store.IndexStore}); the files of the home
 * ({@link dev.prismindex.engine.internal.store.IndexFiles}); the schema: field names, commit
 * metadata keys and format versions ({@link dev.prismindex.engine.internal.store.Schema}); the
 * documents written for a file, a chunk, a skip record and a vector ({@link
 * dev.prismindex.engine.internal.store.Documents}, {@link
 * dev.prismindex.engine.internal.store.ChunkRecord}) and the sink a run writes them through
 * ({@link dev.prismindex.engine.internal.store.LuceneSink}, the SPI's {@link
 * dev.prismindex.engine.spi.DocumentSink}); the manifest as the FILE and SKIPPED documents store
 * it ({@link dev.prismindex.engine.internal.store.Manifests}: the SPI's {@link
 * dev.prismindex.engine.spi.FileEntry} and {@link dev.prismindex.engine.spi.SkippedFile}); the
 * commit metadata's values ({@link dev.prismindex.engine.internal.store.CommitMeta}); and one
 * commit's candidates, the SPI's reads ({@link dev.prismindex.engine.internal.store.LuceneReader}:
 * BM25, k-NN in {@code semantic.VectorCandidates}, the files of a gram query in {@code
 * GramCandidates}). {@link dev.prismindex.engine.internal.store.IndexStore} is also the kernel's
 * {@code StoreAccess} of the local store, whose write transaction is the kernel's own ({@code
 * run.WriteRun}).
 *
 * <p>It does not own the per-file decisions of a run (package {@code pipeline}) nor the Lucene
 * formats of our own that its codec writes (package {@code codec}).
 */
@NullMarked
package dev.prismindex.engine.internal.store;

import org.jspecify.annotations.NullMarked;
