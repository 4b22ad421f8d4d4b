/**
 * The repository walk (internal: public only because the engine has no module descriptor; not an
 * API). {@link dev.prismindex.engine.internal.walk.RepoWalker} lists candidate files with git's exact ignore
 * semantics (JGit) or a plain walk; {@link dev.prismindex.engine.internal.walk.FileRules} holds the name rules;
 * {@link dev.prismindex.engine.internal.walk.Languages} detects languages by extension.
 */
@NullMarked
package dev.prismindex.engine.internal.walk;

import org.jspecify.annotations.NullMarked;
