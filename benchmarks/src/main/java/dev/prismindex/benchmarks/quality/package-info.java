/**
 * The retrieval-quality benchmark (issues 8 and 14): how often the right code comes first, at the
 * right line. Entry point: {@link dev.prismindex.benchmarks.quality.RetrievalQuality}, run by
 * {@code scripts/bench-quality} (which fetches and verifies the corpora). {@code CorpusFiles}
 * rebuilds the corpora; {@code DefinitionExtractor} finds the definitions of five languages and
 * their doc comments with tree-sitter, {@code DocSentence} turns a doc comment into a query;
 * {@code QuerySets} draws the natural-language, navigation and exactness sets (seeded) from
 * library source ({@code LibraryPaths}); {@code GroundTruth} decides what counts as found;
 * {@code Evaluation} asks the index, {@code Tables}, {@code Exactness} and {@code Details} report;
 * {@code Ranking} holds the metrics and the grep-style baseline. Nothing of the corpora is kept in
 * the repository.
 */
@NullMarked
package dev.prismindex.benchmarks.quality;

import org.jspecify.annotations.NullMarked;
