/**
 * The semantic half of the engine (internal: public only because the engine has no module
 * descriptor; not an API). {@link dev.prismindex.engine.internal.semantic.VectorCatalog} relates CHUNK
 * documents to VECTOR documents (coverage, missing texts, orphaned cache entries);
 * {@link dev.prismindex.engine.internal.semantic.EmbeddingRun} embeds the missing texts after a lexical
 * commit and commits vectors periodically; {@link dev.prismindex.engine.internal.semantic.SemanticSearcher}
 * runs k-NN over the vectors and resolves them to chunks; {@link
 * dev.prismindex.engine.internal.semantic.HybridFuser} fuses the lexical and semantic rankings.
 */
@NullMarked
package dev.prismindex.engine.internal.semantic;

import org.jspecify.annotations.NullMarked;
