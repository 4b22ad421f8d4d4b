package dev.prismindex.engine.internal.semantic;

import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.Collection;
import java.util.Set;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitUtil;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.ByteBlockPool;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.BytesRefHash;
import org.jspecify.annotations.Nullable;

/**
 * The keys of the VECTOR documents, read from doc values: {@link Schema#VEC_KEY} (format 9 on: the
 * one copy of a vector's key) or {@link Schema#VEC_HASH} (older vectors, whose key is also a term,
 * no longer read). The live keys of a commit are a compact set ({@link BytesRefHash}: about 30
 * bytes a key), built once and then safe to query from several threads.
 */
public final class VectorKeys {

  private final BytesRefHash keys;

  private VectorKeys(BytesRefHash keys) {
    this.keys = keys;
  }

  /** The keys of {@code reader}'s live vectors. */
  public static VectorKeys live(IndexReader reader) throws IOException {
    long count = 0;
    for (LeafReaderContext leaf : reader.leaves()) {
      count += DocValues.getBinary(leaf.reader(), Schema.VEC_KEY).cost()
          + DocValues.getBinary(leaf.reader(), Schema.VEC_HASH).cost();
    }
    // Sized for every key at once (growing it rehashes every key: 3 to 6 times the time).
    int capacity = (int) Math.min(1 << 30, BitUtil.nextHighestPowerOfTwo(Math.max(16, 2 * count)));
    BytesRefHash keys = new BytesRefHash(new ByteBlockPool(new ByteBlockPool.DirectAllocator()),
        capacity, new BytesRefHash.DirectBytesStartArray(capacity));
    for (LeafReaderContext leaf : reader.leaves()) {
      Bits live = leaf.reader().getLiveDocs();
      for (String field : new String[] {Schema.VEC_KEY, Schema.VEC_HASH}) {
        BinaryDocValues values = DocValues.getBinary(leaf.reader(), field);
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
            doc = values.nextDoc()) {
          if (live == null || live.get(doc)) {
            keys.add(values.binaryValue());
          }
        }
      }
    }
    return new VectorKeys(keys);
  }

  /** Whether a live vector has {@code key}. */
  public boolean contains(BytesRef key) {
    return keys.find(key) >= 0;
  }

  /** The number of distinct keys. */
  public int size() {
    return keys.size();
  }

  /** Reads the keys of one segment's vector documents, asked in increasing document order. */
  static final class Leaf {
    private final BinaryDocValues keys;
    private final BinaryDocValues oldKeys;

    Leaf(LeafReader reader) throws IOException {
      this.keys = DocValues.getBinary(reader, Schema.VEC_KEY);
      this.oldKeys = DocValues.getBinary(reader, Schema.VEC_HASH);
    }

    /** The key of vector document {@code doc} (valid until the next call), or null if none. */
    @Nullable BytesRef key(int doc) throws IOException {
      if (keys.advanceExact(doc)) {
        return keys.binaryValue();
      }
      return oldKeys.advanceExact(doc) ? oldKeys.binaryValue() : null;
    }
  }

  /**
   * The VECTOR documents whose key is one of {@code keys}: the vector documents are scanned and
   * their keys looked up, for deleting them or filtering a k-NN search.
   */
  public static Query matching(Collection<BytesRef> keys) {
    return new KeyQuery(Set.copyOf(keys));
  }

  private static final class KeyQuery extends Query {
    private final Set<BytesRef> keys;

    KeyQuery(Set<BytesRef> keys) {
      this.keys = keys;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
      return new ConstantScoreWeight(this, boost) {
        @Override
        public Scorer scorer(LeafReaderContext context) throws IOException {
          PostingsEnum vectors = context.reader().postings(
              new Term(Schema.TYPE, Schema.TYPE_VECTOR), PostingsEnum.NONE);
          if (vectors == null) {
            return null;
          }
          Leaf leaf = new Leaf(context.reader());
          TwoPhaseIterator matching = new TwoPhaseIterator(vectors) {
            @Override
            public boolean matches() throws IOException {
              BytesRef key = leaf.key(vectors.docID());
              return key != null && keys.contains(key);
            }

            @Override
            public float matchCost() {
              return 16;
            }
          };
          return new ConstantScoreScorer(this, score(), scoreMode, matching);
        }

        @Override
        public boolean isCacheable(LeafReaderContext context) {
          return DocValues.isCacheable(context, Schema.VEC_KEY, Schema.VEC_HASH);
        }
      };
    }

    @Override
    public void visit(QueryVisitor visitor) {
      visitor.visitLeaf(this);
    }

    @Override
    public String toString(String field) {
      return "vector keys (" + keys.size() + ")";
    }

    @Override
    public boolean equals(Object other) {
      return sameClassAs(other) && keys.equals(((KeyQuery) other).keys);
    }

    @Override
    public int hashCode() {
      return 31 * classHash() + keys.hashCode();
    }
  }
}
