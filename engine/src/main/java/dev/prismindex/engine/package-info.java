/**
 * The persistent engine's public API: {@link dev.prismindex.engine.HybridIndex} (entry point,
 * {@link dev.prismindex.engine.HybridIndex#open(HybridIndexOptions)}), the
 * {@link dev.prismindex.engine.CodeSearch} port with {@link dev.prismindex.engine.SearchOpts} and
 * {@link dev.prismindex.engine.Hit}, run counters ({@link dev.prismindex.engine.IndexRunStats}),
 * status ({@link dev.prismindex.engine.EngineStatus}, {@link dev.prismindex.engine.Staleness}) and
 * the dedicated exceptions ({@link dev.prismindex.engine.IncompatibleIndexException},
 * {@link dev.prismindex.engine.CorruptIndexException},
 * {@link dev.prismindex.engine.IndexLockedException},
 * {@link dev.prismindex.engine.SemanticSearchUnavailableException}).
 *
 * <p>How the pieces fit: {@code walk} lists files (git's ignore rules via JGit), {@code store}
 * hashes them against the manifest and writes FILE and CHUNK documents in one Lucene commit per
 * run, {@code chunk} cuts files into symbol chunks (tree-sitter) or line windows, {@code analysis}
 * tokenizes code and computes literal n-grams, and {@code search} answers lexical and exact literal
 * queries, checking every hit's file against the manifest first. See {@code docs/engine.md}.
 *
 * <p><b>Why there is no {@code module-info.java}:</b> the tree-sitter grammar jars all put their
 * classes in the package {@code org.treesitter} (a split package), which the module system rejects
 * on the module path. The jar declares {@code Automatic-Module-Name: dev.prismindex.engine}; the
 * sub-packages {@code analysis}, {@code chunk}, {@code search}, {@code store} and {@code walk} are
 * public only for that reason and are not an API.
 */
@NullMarked
package dev.prismindex.engine;

import org.jspecify.annotations.NullMarked;
