/**
 * Storage (internal: public only because the engine has no module descriptor; not an API).
 * {@link dev.prismindex.engine.internal.store.Schema} names the fields and commit metadata;
 * {@link dev.prismindex.engine.internal.store.IndexStore} owns the directory, the searcher over the last
 * commit and the per-run writers; {@link dev.prismindex.engine.internal.store.Indexer} brings files up to date
 * within one run; {@link dev.prismindex.engine.internal.store.FileEntry} is a manifest entry with git's
 * racy-timestamp rule.
 */
@NullMarked
package dev.prismindex.engine.internal.store;

import org.jspecify.annotations.NullMarked;
