/**
 * Query execution (internal: public only because the engine has no module descriptor; not an API).
 * {@link dev.prismindex.engine.internal.search.LexicalSearcher} runs BM25 over chunks and locates the best
 * line; {@link dev.prismindex.engine.internal.search.LiteralSearcher} answers exact substring queries from the
 * n-gram postings plus verification; {@link dev.prismindex.engine.internal.search.FileView} checks a file
 * against the manifest before any hit from it is served.
 */
@NullMarked
package dev.prismindex.engine.internal.search;

import org.jspecify.annotations.NullMarked;
