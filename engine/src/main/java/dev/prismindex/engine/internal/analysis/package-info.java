/**
 * Text analysis of the engine (internal: public only because the engine has no module descriptor;
 * not an API). {@link dev.prismindex.engine.internal.analysis.CodeAnalyzer} tokenizes code for BM25;
 * {@link dev.prismindex.engine.internal.analysis.Grams} computes the n-grams of the exact literal index.
 */
@NullMarked
package dev.prismindex.engine.internal.analysis;

import org.jspecify.annotations.NullMarked;
