/**
 * Helpers shared by core's packages and prism-index's own modules; not a public API and free to change.
 */
@NullMarked
package dev.prismindex.internal;

import org.jspecify.annotations.NullMarked;
