package dev.prismindex.engine.internal.analysis;

import org.apache.lucene.index.FieldInvertState;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.util.SmallFloat;

/**
 * The index writer's similarity: Lucene's BM25 with its default parameters, the similarity every
 * searcher of the index uses. A field indexed from {@link CountedTerms} gets the norm BM25 gives the
 * token stream the terms were counted from (its length, overlapping tokens not counted), which the
 * writer cannot compute from counted terms; every other field gets BM25's own.
 */
public final class CodeSimilarity extends BM25Similarity {

  @Override
  public long computeNorm(FieldInvertState state) {
    if (state.getAttributeSource() instanceof CountedTerms.Stream counted) {
      return SmallFloat.intToByte4(counted.fieldLength());
    }
    return super.computeNorm(state);
  }
}
