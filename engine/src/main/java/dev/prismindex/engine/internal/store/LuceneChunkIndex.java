package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.internal.search.ChunkDoc;
import dev.prismindex.engine.internal.search.ChunkIndex;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.semantic.SemanticSearcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.jspecify.annotations.Nullable;

/** The {@link ChunkIndex} of a local commit: its searcher; chunk ids are Lucene doc ids. */
public final class LuceneChunkIndex implements ChunkIndex {

  private static final SemanticSearcher SEMANTIC = new SemanticSearcher();

  private final IndexSearcher searcher;

  public LuceneChunkIndex(IndexSearcher searcher) {
    this.searcher = searcher;
  }

  @Override
  public List<Ranked> lexical(Query query, int depth) throws IOException {
    TopDocs top = searcher.search(query, depth);
    List<Ranked> out = new ArrayList<>(top.scoreDocs.length);
    int rank = 0;
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(new Ranked(sd.doc, ++rank, sd.score));
    }
    return out;
  }

  @Override
  public List<Ranked> nearest(float[] unitVector, int depth, FileMatcher files,
      @Nullable Query fileQuery) throws IOException {
    return SEMANTIC.candidates(searcher, unitVector, depth, files, fileQuery);
  }

  @Override
  public @Nullable Query fileQuery(FileMatcher files) throws IOException {
    return files.query(searcher);
  }

  @Override
  public ChunkDoc chunk(int doc) throws IOException {
    return ChunkDoc.read(searcher, doc);
  }

  @Override
  public @Nullable FileEntry file(String path) throws IOException {
    return Manifests.lookup(searcher, path);
  }
}
