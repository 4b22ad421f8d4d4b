/**
 * Chunking (internal: public only because the engine has no module descriptor; not an API).
 * {@link dev.prismindex.engine.internal.chunk.Chunker} cuts a file into symbol chunks with tree-sitter or into
 * line windows, within {@link dev.prismindex.engine.internal.chunk.ChunkLimits};
 * {@link dev.prismindex.engine.internal.chunk.SourceLines} splits lines exactly as the literal scanner does.
 */
@NullMarked
package dev.prismindex.engine.internal.chunk;

import org.jspecify.annotations.NullMarked;
