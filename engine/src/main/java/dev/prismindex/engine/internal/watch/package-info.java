/**
 * The file watcher behind {@link dev.prismindex.engine.IndexWatch} (internal: public only because
 * the engine has no module descriptor; not an API). {@link
 * dev.prismindex.engine.internal.watch.WatchLoop} is the worker: it debounces and coalesces the
 * pending changes into scoped lexical refreshes and runs the embedding follow-ups when nothing else
 * is due; {@link dev.prismindex.engine.internal.watch.WatchEvents} records the changes (the
 * watcher's threads), {@link dev.prismindex.engine.internal.watch.WatchSync} answers {@code sync}
 * and {@code status}, and {@link dev.prismindex.engine.internal.watch.WatchState} is what the three
 * share under one lock. {@link dev.prismindex.engine.internal.watch.TreeWatch}
 * registers the directories the engine's walk enters with {@code io.methvin:directory-watcher};
 * {@link dev.prismindex.engine.internal.watch.PathTriage} drops events for what the walk leaves
 * out; {@link dev.prismindex.engine.internal.watch.Fence} proves that the events written before a
 * {@code sync} were delivered; {@link dev.prismindex.engine.internal.watch.RootAnchor} notices the
 * root being deleted, moved away or created again.
 */
@NullMarked
package dev.prismindex.engine.internal.watch;

import org.jspecify.annotations.NullMarked;
