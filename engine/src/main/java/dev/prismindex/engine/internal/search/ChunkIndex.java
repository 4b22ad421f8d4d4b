package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.LuceneChunkIndex;
import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.search.Query;
import org.jspecify.annotations.Nullable;

/**
 * The ranked part of one commit, whatever stores it: the local Lucene index ({@link
 * LuceneChunkIndex}) or a search cluster. The ranked searches ({@code RankedSearch}) are written
 * against it once, so every store ranks, fuses and locates hits the same way. Queries are given as
 * Lucene {@link Query} trees over the {@code Schema} fields (the one query model; a remote store
 * translates them). Chunk ids ({@link Ranked#doc()}) are only meaningful within one instance.
 */
public interface ChunkIndex {

  /** The top {@code depth} CHUNK documents for {@code query} by BM25, best first. */
  List<Ranked> lexical(Query query, int depth) throws IOException;

  /**
   * The {@code depth} chunks nearest to {@code unitVector} (cosine similarity as the score) among
   * those {@code files} selects, best first.
   *
   * @param fileQuery {@code files} as this index's query ({@link #fileQuery})
   */
  List<Ranked> nearest(float[] unitVector, int depth, FileMatcher files,
      @Nullable Query fileQuery) throws IOException;

  /**
   * The search's file filter as a query on this commit's paths ({@link FileMatcher#query}), null
   * when every file is selected; the ranked searches add it to their queries.
   */
  @Nullable Query fileQuery(FileMatcher files) throws IOException;

  /** The stored fields of the chunk {@code doc} returned by this instance. */
  ChunkDoc chunk(int doc) throws IOException;

  /** The manifest entry of {@code path} in this commit, or null when it has none. */
  @Nullable FileEntry file(String path) throws IOException;

  /**
   * Announces that {@link #file} is about to be asked for the files of the chunks {@code docs}
   * (the ranked candidates), so that a remote store can fetch their entries in one request instead
   * of one each. The local index reads an entry as cheaply one at a time and does nothing.
   */
  default void prefetchFiles(Collection<Integer> docs) throws IOException {}
}
