/**
 * The embedding SPI: how text becomes a vector for {@code semantic} search.
 *
 * <p>An {@link dev.prismindex.embed.Embedder} has a stable {@linkplain dev.prismindex.embed.Embedder#id()
 * id} and {@linkplain dev.prismindex.embed.Embedder#dimension() dimension}, which indexes record so a
 * vector written by one model is never compared with a vector from another. Models that live in other
 * modules are found with {@link java.util.ServiceLoader} through
 * {@link dev.prismindex.embed.EmbedderProvider}.
 */
@NullMarked
package dev.prismindex.embed;

import org.jspecify.annotations.NullMarked;
