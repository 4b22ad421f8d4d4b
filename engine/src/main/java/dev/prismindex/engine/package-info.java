/**
 * The persistent engine's public API: {@link dev.prismindex.engine.HybridIndex} (entry point,
 * {@link dev.prismindex.engine.HybridIndex#open(HybridIndexOptions)}), the
 * {@link dev.prismindex.engine.CodeSearch} port with {@link dev.prismindex.engine.SearchOpts}
 * ({@link dev.prismindex.repository.SearchMode}, {@link dev.prismindex.engine.Fusion},
 * {@link dev.prismindex.engine.FileFilter}), {@link dev.prismindex.engine.Hit} and
 * {@link dev.prismindex.engine.SearchResult}, runs
 * ({@link dev.prismindex.engine.RefreshOptions},
 * {@link dev.prismindex.engine.IndexProgressListener},
 * {@link dev.prismindex.engine.IndexRunStats}), keeping an index current while a process runs
 * ({@link dev.prismindex.engine.IndexWatch}), status ({@link dev.prismindex.engine.EngineStatus},
 * {@link dev.prismindex.engine.SemanticCoverage}, {@link dev.prismindex.engine.SemanticState},
 * {@link dev.prismindex.engine.Staleness}) and the dedicated exceptions
 * ({@link dev.prismindex.engine.IncompatibleIndexException},
 * {@link dev.prismindex.engine.CorruptIndexException},
 * {@link dev.prismindex.engine.IndexLockedException},
 * {@link dev.prismindex.engine.SemanticSearchUnavailableException}).
 *
 * <p>This package holds the API only (and the package-private {@code IndexParts}): no public
 * method here takes or returns an internal type. {@code HybridIndex} is the kernel: the one place
 * an index is assembled from a store (the local Lucene index, or a store of the published SPI,
 * {@code dev.prismindex.engine.spi}: {@link
 * dev.prismindex.engine.HybridIndex#open(HybridIndexOptions, dev.prismindex.engine.spi.Store)}),
 * in its {@code IndexParts}, and a facade over parts in {@code dev.prismindex.engine.internal}: {@code walk} lists files
 * (git's ignore rules and {@code .prismignore} files via JGit), {@code pipeline} hashes them
 * against the manifest and hands each file's documents to the store, {@code store} is the local
 * Lucene store (its documents, manifest and one commit per run) with our own formats in {@code
 * codec}, {@code chunk} cuts files into symbol chunks (tree-sitter) or line windows, {@code
 * analysis} tokenizes code and computes literal n-grams, {@code semantic} embeds the chunk texts
 * that have no vector yet into VECTOR documents (the embedding cache, committed after the lexical
 * commit), runs k-NN and fuses rankings, {@code search} builds lexical queries, verifies literal
 * candidates and locates every hit; {@code run} (the runs of either store, the staleness probe),
 * {@code query} (the query planner) and {@code seam} (the backend SPI) put them together; {@code
 * watch} is the file watcher behind {@code IndexWatch} (it registers what the walk enters and
 * turns events into scoped refreshes). See {@code docs/engine.md} and {@code
 * docs/architecture.md}.
 *
 * <p><b>Why there is no {@code module-info.java}:</b> the tree-sitter grammar jars all put their
 * classes in the package {@code org.treesitter} (a split package), which the module system rejects
 * on the module path. The jar declares {@code Automatic-Module-Name: dev.prismindex.engine}; the
 * {@code internal} packages are public only for that reason and are not an API.
 */
@NullMarked
package dev.prismindex.engine;

import org.jspecify.annotations.NullMarked;
