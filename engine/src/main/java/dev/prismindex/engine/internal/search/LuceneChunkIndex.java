package dev.prismindex.engine.internal.search;

import dev.prismindex.engine.internal.search.LexicalSearcher.Ranked;
import dev.prismindex.engine.internal.semantic.SemanticSearcher;
import dev.prismindex.engine.internal.store.FileEntry;
import dev.prismindex.engine.internal.store.Manifests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.jspecify.annotations.Nullable;

/** The {@link ChunkIndex} of a local commit: its searcher; chunk ids are Lucene doc ids. */
public final class LuceneChunkIndex implements ChunkIndex {

  private static final SemanticSearcher SEMANTIC = new SemanticSearcher();

  private final IndexSearcher searcher;

  public LuceneChunkIndex(IndexSearcher searcher) {
    this.searcher = searcher;
  }

  /**
   * {@inheritDoc}
   *
   * <p>In a total order: score, then path, then line, so that equal scores do not fall in the
   * order of document numbers, which depends on when each file was written. When the score at the
   * cut is shared with documents beyond it, every document with that score competes for the
   * places left.
   */
  @Override
  public List<Ranked> lexical(Query query, int depth) throws IOException {
    ScoreDoc[] top = searcher.search(query, depth + 1).scoreDocs;
    List<ScoreDoc> candidates;
    if (top.length > depth && top[depth].score == top[depth - 1].score) {
      candidates = scoringAtLeast(query, top[depth - 1].score);
    } else {
      candidates = List.of(top).subList(0, Math.min(depth, top.length));
    }
    return TieOrder.ranked(searcher, candidates, depth);
  }

  /** Every document {@code query} scores {@code min} or more, in no order. */
  private List<ScoreDoc> scoringAtLeast(Query query, float min) throws IOException {
    List<ScoreDoc> out = new ArrayList<>();
    searcher.search(query, new SimpleCollector() {
      private Scorable scorer;
      private int base;

      @Override
      protected void doSetNextReader(LeafReaderContext context) {
        base = context.docBase;
      }

      @Override
      public void setScorer(Scorable s) throws IOException {
        scorer = s;
        s.setMinCompetitiveScore(min);
      }

      @Override
      public void collect(int doc) throws IOException {
        float score = scorer.score();
        if (score >= min) {
          out.add(new ScoreDoc(base + doc, score));
        }
      }

      @Override
      public ScoreMode scoreMode() {
        return ScoreMode.TOP_SCORES;
      }
    });
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
