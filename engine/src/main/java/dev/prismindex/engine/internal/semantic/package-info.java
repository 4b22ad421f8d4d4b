/**
 * The semantic half of the engine (internal: public only because the engine has no module
 * descriptor; not an API). {@link dev.prismindex.engine.internal.semantic.VectorCatalog} relates CHUNK
 * documents to VECTOR documents (coverage, missing texts, orphaned cache entries);
 * {@link dev.prismindex.engine.internal.semantic.EmbeddingRun} embeds the missing texts after a lexical
 * commit and commits vectors periodically; {@link dev.prismindex.engine.internal.semantic.ModelVectors}
 * is the model as a plugged store sees it; {@link
 * dev.prismindex.engine.internal.semantic.VectorCandidates} is the local store's k-NN over the
 * vectors, resolved to chunks; {@link dev.prismindex.engine.internal.semantic.HybridFuser} fuses
 * the lexical and semantic rankings.
 */
@NullMarked
package dev.prismindex.engine.internal.semantic;

import org.jspecify.annotations.NullMarked;
