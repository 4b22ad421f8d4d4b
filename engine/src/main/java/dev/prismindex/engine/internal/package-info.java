/**
 * Internal parts of the engine (public only because the engine has no module descriptor; not an
 * API). {@link dev.prismindex.engine.internal.EngineContext} is what the parts of one open index
 * share (paths and scopes go through core's {@code RelativePath}). The parts sit in the sub-packages: {@code run} (writes),
 * {@code query} (searches), {@code seam} (the backend SPI), {@code walk}, {@code chunk}, {@code
 * analysis}, {@code store}, {@code search} and {@code semantic}.
 */
@NullMarked
package dev.prismindex.engine.internal;

import org.jspecify.annotations.NullMarked;
