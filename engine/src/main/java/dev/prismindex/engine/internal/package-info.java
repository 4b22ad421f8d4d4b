/**
 * Internal parts of the engine (public only because the engine has no module descriptor; not an
 * API, and named by no other module: {@code ModuleBoundaryTest}). {@link
 * dev.prismindex.engine.internal.EngineContext} is what the parts of one open index share (paths
 * and scopes go through core's {@code RelativePath}), {@link
 * dev.prismindex.engine.internal.StoreAccess} what they need of its store (the local one, or a
 * plugged SPI store through {@link dev.prismindex.engine.internal.PluggedStore}), {@link
 * dev.prismindex.engine.internal.Failures} how a task's failure is thrown again. The parts sit in
 * the sub-packages: {@code run} (writes), {@code query} (searches), {@code seam} (the backend
 * SPI), {@code walk}, {@code pipeline}, {@code chunk}, {@code analysis}, {@code store}, {@code
 * codec}, {@code search}, {@code semantic} and {@code watch}.
 */
@NullMarked
package dev.prismindex.engine.internal;

import org.jspecify.annotations.NullMarked;
