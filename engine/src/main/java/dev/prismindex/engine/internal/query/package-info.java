/**
 * The read side of the engine (internal; not an API). {@link
 * dev.prismindex.engine.internal.query.QueryPlanner} runs one search in stages (candidates,
 * fuse, identifier guard, locate, collect), with {@link
 * dev.prismindex.engine.internal.query.IdentifierGuard} for HYBRID and {@link
 * dev.prismindex.engine.internal.query.LiteralHits} turning literal matches into hits.
 */
@NullMarked
package dev.prismindex.engine.internal.query;

import org.jspecify.annotations.NullMarked;
