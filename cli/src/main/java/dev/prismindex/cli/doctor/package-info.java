/**
 * {@code prism-index doctor}: what prism-index needs on this machine and for this repository,
 * checked one by one, each problem with its fix.
 */
@NullMarked
package dev.prismindex.cli.doctor;

import org.jspecify.annotations.NullMarked;
