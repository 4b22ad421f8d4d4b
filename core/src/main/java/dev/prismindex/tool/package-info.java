/**
 * The {@code repo_search} agent tool: its JSON schema, argument validation and text rendering.
 */
@NullMarked
package dev.prismindex.tool;

import org.jspecify.annotations.NullMarked;
