/**
 * prism-index's own code-search model: a static embedding trained on doc/code pairs mined from
 * public source trees (scripts/mine-code-pairs, scripts/train-code-model; docs/engine.md, "The
 * code-search model").
 *
 * <p>Entry point: {@link dev.prismindex.model.code.CodeEmbedderProvider}, registered for
 * {@link java.util.ServiceLoader} under {@link dev.prismindex.embed.EmbedderProvider}.
 * {@link dev.prismindex.model.code.CodeTokenizer} is the model's tokenizer, public so that the
 * mining of training pairs tokenizes exactly as the embedder does. The model loads lazily, once
 * per process, from a resource of this module.
 */
@NullMarked
package dev.prismindex.model.code;

import org.jspecify.annotations.NullMarked;
