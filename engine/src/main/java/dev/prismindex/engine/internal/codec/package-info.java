/**
 * Our own Lucene formats and the codec that writes them (internal; not an API). Lucene finds the
 * formats by name when it reads a segment ({@code META-INF/services}), so an index records what
 * wrote it; the classes may move, the names may not.
 *
 * <p>It owns: the gram index of exact literal search, a doc-values format that inverts each FILE
 * document's n-grams at flush ({@link dev.prismindex.engine.internal.codec.GramIndexFormat},
 * {@link dev.prismindex.engine.internal.codec.GramIndexWriter}, {@link
 * dev.prismindex.engine.internal.codec.GramIndexReader}; read through {@link
 * dev.prismindex.engine.internal.codec.GramPostings}); the packed vector format, searched by a scan of
 * the vectors' signs ({@link dev.prismindex.engine.internal.codec.PackedVectorsFormat}, its writer,
 * reader and values); the vector codes ({@link dev.prismindex.engine.internal.codec.VectorCode},
 * {@link dev.prismindex.engine.internal.codec.Int8Vectors}); the two files each of those formats
 * writes per segment ({@link dev.prismindex.engine.internal.codec.SegmentFiles}); and the writer's
 * codec and buffers ({@link dev.prismindex.engine.internal.codec.WriterSettings}).
 *
 * <p>Nothing here knows about repositories, files or runs: only field values in, postings and
 * vectors out.
 */
@NullMarked
package dev.prismindex.engine.internal.codec;

import org.jspecify.annotations.NullMarked;
