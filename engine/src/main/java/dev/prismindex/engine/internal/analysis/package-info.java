/**
 * Text analysis of the engine (internal: public only because the engine has no module descriptor;
 * not an API). {@link dev.prismindex.engine.internal.analysis.CodeAnalyzer} tokenizes code for BM25
 * (and gives its prose field an English chain, {@code ProseAnalyzer});
 * {@link dev.prismindex.engine.internal.analysis.Grams} computes the n-grams of the exact literal index.
 */
@NullMarked
package dev.prismindex.engine.internal.analysis;

import org.jspecify.annotations.NullMarked;
