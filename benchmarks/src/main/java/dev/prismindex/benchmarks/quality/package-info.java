/**
 * The retrieval-quality benchmark (issue 8): how often the right code comes first. Entry point:
 * {@link dev.prismindex.benchmarks.quality.RetrievalQuality}, run by {@code scripts/bench-quality}.
 * {@code JavaSources} rebuilds the corpora (the JDK's {@code src.zip}, optional checked-out
 * repositories) and finds their definitions with tree-sitter; {@code QuerySets} draws the
 * natural-language, navigation and exactness sets (seeded); {@code Ranking} holds the metrics and
 * the grep-style baseline. Nothing of the corpora is kept in the repository.
 */
@NullMarked
package dev.prismindex.benchmarks.quality;

import org.jspecify.annotations.NullMarked;
