/**
 * The seam adapter (internal; not an API): {@link
 * dev.prismindex.engine.internal.seam.SeamAdapter} serves the core {@code
 * RepositoryIndexBackend} SPI from the engine's parts and builds every {@code IndexSearchHit}
 * from a {@code Hit}.
 */
@NullMarked
package dev.prismindex.engine.internal.seam;

import org.jspecify.annotations.NullMarked;
