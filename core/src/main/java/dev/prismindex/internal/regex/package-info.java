/**
 * The regular-expression matcher behind {@link dev.prismindex.repository.RegexPattern}: a parser
 * of ripgrep's pattern syntax ({@link dev.prismindex.internal.regex.RegexParser}) into a syntax
 * tree with every flag applied ({@link dev.prismindex.internal.regex.Node}, which the engine's gram
 * planner also reads), Unicode classes and simple case folding from the JDK's tables, a compiler to
 * NFA instructions ({@link dev.prismindex.internal.regex.Program}) and a linear-time matcher
 * ({@link dev.prismindex.internal.regex.RegexMatcher}: a bit-state backtracker, or a Pike VM for
 * long lines). Not a public API.
 */
@NullMarked
package dev.prismindex.internal.regex;

import org.jspecify.annotations.NullMarked;
