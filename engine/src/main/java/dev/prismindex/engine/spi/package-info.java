/**
 * The store SPI: what a store implements so that the engine's kernel ({@code HybridIndex}) can
 * keep a repository's index in it, as Lucene's codecs plug in behind its format SPI. The kernel
 * owns the walk, the file rules, BLAKE3, chunking, analysis, embedding, ranking, fusion, hit
 * location and the verification of every hit against the working tree; a store owns where the
 * documents live and how its candidates are found.
 *
 * <h2>The three seams</h2>
 *
 * <ul>
 *   <li><b>Documents in.</b> {@link dev.prismindex.engine.spi.Store#beginWrite} begins the one
 *       write of a run; the kernel's pipeline puts each file's documents into its {@link
 *       dev.prismindex.engine.spi.DocumentSink} (a {@link dev.prismindex.engine.spi.FileEntry} with
 *       the file's {@link dev.prismindex.engine.spi.FileGrams}, its {@link
 *       dev.prismindex.engine.spi.Chunk}s and their vector keys; {@link
 *       dev.prismindex.engine.spi.SkippedFile}s; deletions) and then {@link
 *       dev.prismindex.engine.spi.StoreWrite#commit}s them with a {@link
 *       dev.prismindex.engine.spi.CommitRecord}.
 *   <li><b>The manifest.</b> {@link dev.prismindex.engine.spi.Store#files} and {@link
 *       dev.prismindex.engine.spi.Store#skipped}: what the last commit holds of each file (hash,
 *       stat data, chunk count), from which the kernel decides what a run re-reads; {@link
 *       dev.prismindex.engine.spi.Store#record} and {@link dev.prismindex.engine.spi.Store#health}:
 *       what the index says about itself.
 *   <li><b>Candidates out.</b> {@link dev.prismindex.engine.spi.Store#reader} reads one commit:
 *       BM25 candidates ({@link dev.prismindex.engine.spi.LexicalQuery}), k-NN candidates ({@link
 *       dev.prismindex.engine.spi.VectorQuery}), the files an exact search must verify ({@link
 *       dev.prismindex.engine.spi.GramQuery}), and the stored fields of a candidate ({@link
 *       dev.prismindex.engine.spi.ChunkDoc}) and of its file.
 * </ul>
 *
 * <p>The local Lucene index is the kernel's built-in store: it answers the same reads ({@code
 * StoreReader}) and takes the same documents ({@code DocumentSink}), but its write transaction is
 * the kernel's own (one Lucene commit holding the documents, the vectors of the embedding cache
 * and the metadata), since a cache of vectors kept apart from the chunks has no counterpart here
 * yet. {@code prism-index-opensearch} is a store of this SPI.
 *
 * <h2>Why queries are Lucene queries</h2>
 *
 * The BM25 parts and the file filters are Lucene {@code Query} trees over the fields of {@link
 * dev.prismindex.engine.spi.StoreFields} (boolean, boost, dis-max, term, term-set, prefix and
 * match-none queries only). They are the kernel's one query model, the local store runs them as
 * they are, and a remote store translates them clause for clause (the cluster store turns them
 * into OpenSearch's query DSL, which scores them as Lucene does): a query language of our own
 * would be that same tree under other names, with a translation on both sides. Nothing else of
 * Lucene is part of the SPI but the {@code Analyzer} a store that analyzes text itself is given.
 *
 * <h2>What comes next, and why the types look as they do</h2>
 *
 * <ul>
 *   <li><b>One ranking for every store.</b> A learned ranker will re-rank candidates by features
 *       (BM25 per field, each embedding tier's cosine, each list's rank, definition kind, path
 *       prior, file aggregate score, chunk length). It must give the same order on every store, so
 *       the ranking stays in the kernel: a store returns candidates, never hits or fused scores.
 *       A {@link dev.prismindex.engine.spi.LexicalQuery} is a list of parts (one per field, say)
 *       and each {@link dev.prismindex.engine.spi.Candidate} carries the score of every part,
 *       already now, because stores construct candidates: a component added later would break
 *       them. Requests ({@code LexicalQuery}, {@code VectorQuery}) are built by the kernel only,
 *       so they can grow (an embedding tier to search, say) without breaking a store.
 *   <li><b>Exact search is grep.</b> Literal and regular-expression search are planned over the
 *       gram index: {@link dev.prismindex.engine.spi.StoreReader#files} takes an AND / OR tree of
 *       grams ({@link dev.prismindex.engine.spi.GramQuery}), not a string, and may over-select;
 *       the kernel verifies every candidate against the working tree.
 *   <li><b>Many repositories.</b> A store holds one repository; nothing here is global or static,
 *       so a workspace opens several indexes (several stores, one ranking by the kernel) and a
 *       cluster keeps every repository's index under an alias (one query with cluster-wide term
 *       statistics: BM25 scores of different repositories then compare). Chunk ids are
 *       meaningful within one reader only, so merging readers is the kernel's business.
 * </ul>
 *
 * <p>Every type here is public API with the engine's compatibility promise; implementations are
 * thread-safe where their Javadoc says so. Nullness: {@code @NullMarked}.
 */
@NullMarked
package dev.prismindex.engine.spi;

import org.jspecify.annotations.NullMarked;
