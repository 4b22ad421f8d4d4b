package dev.prismindex.engine.internal.semantic;

import dev.prismindex.engine.internal.store.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * Reads how the CHUNK documents of a commit relate to its VECTOR documents (the embedding cache):
 * semantic coverage, the chunk texts that still need a vector, and the vectors no chunk references.
 *
 * <p>Everything is a walk over the sorted terms of {@link Schema#CHUNK_HASH}, with a lookup in the
 * keys of the live vectors ({@link VectorKeys}) per distinct chunk text, counting live documents
 * only; no stored field is read except one path per missing text. Works on any reader (a committed
 * one or a writer's near-real-time reader, used to put the counts into the commit that they
 * describe).
 */
public final class VectorCatalog {

  private VectorCatalog() {}

  /**
   * The counts of one commit.
   *
   * @param chunks live CHUNK documents
   * @param chunksEmbedded live CHUNK documents whose text has a live vector
   * @param vectors live VECTOR documents
   * @param referencedVectors live VECTOR documents used by at least one chunk
   */
  public record Stats(long chunks, long chunksEmbedded, long vectors, long referencedVectors) {
    /** Vectors no chunk uses (kept as cache). */
    public long unreferencedVectors() {
      return vectors - referencedVectors;
    }
  }

  /**
   * The live chunks of {@code paths} whose text has a live vector (what those files add to the
   * covered chunks): a lookup per chunk of those files, not a walk of the index.
   *
   * @param hasVector whether a key has a live vector in {@code reader}'s commit (its {@link
   *     VectorKeys}, which a run has already read for reusing vectors)
   */
  public static long coveredChunks(IndexReader reader, Collection<String> paths,
      Predicate<BytesRef> hasVector) throws IOException {
    Bits live = MultiBits.getLiveDocs(reader);
    long[] covered = {0};
    for (String path : paths) {
      forEachLiveChunk(reader, live, path, hash -> {
        if (hasVector.test(hash)) {
          covered[0]++;
        }
      });
    }
    return covered[0];
  }

  /** Receives a chunk's text hash; may read the index. */
  private interface ChunkVisitor {
    void visit(BytesRef hash) throws IOException;
  }

  /**
   * Gives {@code visitor} the text hash of each live chunk of {@code path}, in document order (the
   * file's own FILE document has none and is passed over).
   */
  private static void forEachLiveChunk(IndexReader reader, @Nullable Bits live, String path,
      ChunkVisitor visitor) throws IOException {
    PostingsEnum pe = MultiTerms.getTermPostingsEnum(reader, Schema.PATH, new BytesRef(path),
        PostingsEnum.NONE);
    if (pe == null) {
      return;
    }
    for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
      if (live != null && !live.get(doc)) {
        continue;
      }
      BytesRef hash = chunkHash(reader, doc); // null for the FILE document
      if (hash != null) {
        visitor.visit(hash);
      }
    }
  }

  /** Counts chunks, covered chunks and vectors. */
  public static Stats stats(IndexReader reader) throws IOException {
    return walk(reader, null);
  }

  /**
   * The chunk texts without a vector, grouped by a file that holds them (files in path order, texts
   * in first-seen order), each with the number of live chunks that use it. Each missing text
   * appears under exactly one file.
   *
   * @param onlyPaths when non-null, only texts of chunks in these files
   */
  public static Map<String, Map<BytesRef, Integer>> missing(IndexReader reader,
      @Nullable Set<String> onlyPaths) throws IOException {
    Map<String, Map<BytesRef, Integer>> out = new TreeMap<>();
    Bits live = MultiBits.getLiveDocs(reader);
    if (onlyPaths != null) {
      Set<BytesRef> seen = new HashSet<>();
      VectorKeys vectors = VectorKeys.live(reader);
      TermsEnum chunks = termsEnum(reader, Schema.CHUNK_HASH);
      LiveCount counts = new LiveCount();
      for (String path : new TreeSet<>(onlyPaths)) {
        forEachLiveChunk(reader, live, path, hash -> {
          if (chunks != null && seen.add(hash) && !vectors.contains(hash)) {
            int uses = chunks.seekExact(hash) ? counts.of(chunks, live, null) : 1;
            out.computeIfAbsent(path, p -> new LinkedHashMap<>()).put(hash, Math.max(1, uses));
          }
        });
      }
      return out;
    }
    Map<Integer, Missing> firstDocs = new HashMap<>();
    walk(reader, firstDocs);
    StoredFields stored = reader.storedFields();
    List<Map.Entry<Integer, Missing>> sorted = new ArrayList<>(firstDocs.entrySet());
    sorted.sort(Map.Entry.comparingByKey());
    for (Map.Entry<Integer, Missing> e : sorted) {
      String path = stored.document(e.getKey(), Set.of(Schema.PATH)).get(Schema.PATH);
      out.computeIfAbsent(path, p -> new LinkedHashMap<>())
          .put(e.getValue().hash(), e.getValue().uses());
    }
    return out;
  }

  private record Missing(BytesRef hash, int uses) {}

  /** One vector no chunk references. */
  public record Orphan(BytesRef hash, long createdMs) {}

  /** The vectors no live chunk references, oldest first (one per key). */
  public static List<Orphan> orphans(IndexReader reader) throws IOException {
    List<Orphan> out = new ArrayList<>();
    TermsEnum chunks = termsEnum(reader, Schema.CHUNK_HASH);
    Bits liveChunks = MultiBits.getLiveDocs(reader);
    Set<BytesRef> seen = new HashSet<>();
    LiveCount counts = new LiveCount();
    for (LeafReaderContext leaf : reader.leaves()) {
      PostingsEnum vectors = leaf.reader().postings(
          new Term(Schema.TYPE, Schema.TYPE_VECTOR), PostingsEnum.NONE);
      if (vectors == null) {
        continue;
      }
      VectorKeys.Leaf keys = new VectorKeys.Leaf(leaf.reader());
      NumericDocValues created = DocValues.getNumeric(leaf.reader(), Schema.VEC_CREATED);
      Bits live = leaf.reader().getLiveDocs();
      for (int doc = vectors.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = vectors.nextDoc()) {
        BytesRef found = live == null || live.get(doc) ? keys.key(doc) : null;
        if (found == null) {
          continue;
        }
        BytesRef key = BytesRef.deepCopyOf(found);
        if (!seen.add(key)) {
          continue;
        }
        boolean referenced = chunks != null && chunks.seekExact(key)
            && counts.of(chunks, liveChunks, null) > 0;
        if (!referenced) {
          out.add(new Orphan(key, created.advanceExact(doc) ? created.longValue() : 0L));
        }
      }
    }
    out.sort((a, b) -> Long.compare(a.createdMs(), b.createdMs()));
    return out;
  }

  private static Stats walk(IndexReader reader, @Nullable Map<Integer, Missing> missingFirstDocs)
      throws IOException {
    Bits live = MultiBits.getLiveDocs(reader);
    long vectorDocs = 0;
    PostingsEnum typeDocs = MultiTerms.getTermPostingsEnum(reader, Schema.TYPE,
        new BytesRef(Schema.TYPE_VECTOR), PostingsEnum.NONE);
    if (typeDocs != null) {
      for (int doc = typeDocs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = typeDocs.nextDoc()) {
        if (live == null || live.get(doc)) {
          vectorDocs++;
        }
      }
    }
    TermsEnum chunks = termsEnum(reader, Schema.CHUNK_HASH);
    if (chunks == null) {
      return new Stats(0, 0, vectorDocs, 0);
    }
    VectorKeys vectors = VectorKeys.live(reader);
    long chunkDocs = 0;
    long covered = 0;
    long referenced = 0;
    int[] first = new int[1];
    LiveCount counts = new LiveCount();
    for (BytesRef h = chunks.next(); h != null; h = chunks.next()) {
      int n = counts.of(chunks, live, first);
      if (n == 0) {
        continue;
      }
      chunkDocs += n;
      if (vectors.contains(h)) {
        covered += n;
        referenced++;
      } else if (missingFirstDocs != null) {
        missingFirstDocs.put(first[0], new Missing(BytesRef.deepCopyOf(h), n));
      }
    }
    return new Stats(chunkDocs, covered, vectorDocs, referenced);
  }

  private static @Nullable TermsEnum termsEnum(IndexReader reader, String field)
      throws IOException {
    Terms terms = MultiTerms.getTerms(reader, field);
    return terms == null ? null : terms.iterator();
  }

  /**
   * Counts the live documents of a terms enum's current term, reusing one postings enum for all
   * the terms it is asked about (a walk asks about every chunk text of the index: a new enum each
   * time was most of a walk's allocation).
   */
  private static final class LiveCount {
    private @Nullable PostingsEnum postings;

    /** Live documents of the enum's current term; stores the first one in {@code first[0]}. */
    int of(TermsEnum te, @Nullable Bits live, int @Nullable [] first) throws IOException {
      PostingsEnum pe = te.postings(postings, PostingsEnum.NONE);
      postings = pe;
      int n = 0;
      for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
        if (live == null || live.get(doc)) {
          if (n == 0 && first != null) {
            first[0] = doc;
          }
          n++;
        }
      }
      return n;
    }
  }

  private static @Nullable BytesRef chunkHash(IndexReader reader, int doc) throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    var values = DocValues.getBinary(leaf.reader(), Schema.CHUNK_HASH);
    return values.advanceExact(doc - leaf.docBase) ? BytesRef.deepCopyOf(values.binaryValue())
        : null;
  }
}
