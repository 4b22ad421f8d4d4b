/**
 * The bundled local embedding model, all-MiniLM-L6-v2 (int8-quantized, 384 dimensions), run in-process
 * by ONNX Runtime with no network access.
 *
 * <p>Entry point: {@link dev.prismindex.model.minilm.MiniLmEmbedderProvider}, registered for
 * {@link java.util.ServiceLoader} under {@link dev.prismindex.embed.EmbedderProvider}. The model loads
 * lazily, once per process, on the first embedding call.
 */
@NullMarked
package dev.prismindex.model.minilm;

import org.jspecify.annotations.NullMarked;
