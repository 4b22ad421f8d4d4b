/**
 * Internal parts of the engine (public only because the engine has no module descriptor; not an
 * API). {@link dev.prismindex.engine.internal.EngineContext} is what the parts of one open index
 * share; {@link dev.prismindex.engine.internal.PathRule} is the engine's one place for
 * repository-relative paths and scopes. The parts sit in the sub-packages: {@code run} (writes),
 * {@code query} (searches), {@code seam} (the backend SPI), {@code walk}, {@code chunk}, {@code
 * analysis}, {@code store}, {@code search} and {@code semantic}.
 */
@NullMarked
package dev.prismindex.engine.internal;

import org.jspecify.annotations.NullMarked;
