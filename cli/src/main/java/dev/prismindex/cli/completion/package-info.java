/**
 * Shell completion: {@code prism-index completion bash|zsh|fish} prints a script generated from the
 * command line's own picocli model, so it offers exactly the commands and options the parser
 * accepts and cannot drift from them.
 *
 * <p>Entry point: {@link dev.prismindex.cli.completion.Completions#script}. bash and zsh get
 * picocli's {@code AutoComplete} script (one script for both: under zsh it loads
 * {@code bashcompinit}); fish, for which picocli has no generator, gets {@code FishCompletion}'s,
 * written from the same model. The distribution ships the three scripts, generated at build time by
 * the built jar, in {@code share/completions/} (docs/cli.md, "Shell completion").
 */
@NullMarked
package dev.prismindex.cli.completion;

import org.jspecify.annotations.NullMarked;
