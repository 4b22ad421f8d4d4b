package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.internal.analysis.ChunkTerms;
import dev.prismindex.engine.internal.analysis.CountedTerms;
import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.chunk.EmbedText;
import dev.prismindex.engine.internal.codec.GramIndexFormat;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.KnnByteVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/** Builds the FILE and CHUNK documents of {@link Schema}. */
public final class Documents {

  /**
   * The analyzed chunk fields (code and prose) are ranked by BM25 term frequency alone: no phrase
   * or span query reads them, so they keep no positions (less to write and a smaller index), and
   * they are indexed from counted terms ({@link ChunkTerms}), each distinct identifier analysed
   * once for both the code and the prose field.
   */
  private static final FieldType RANKED_TYPE = new FieldType();
  private static final List<String> RANKED_FIELDS =
      List.of(Schema.BODY, Schema.SYMBOL, Schema.PATH_TEXT, Schema.PROSE);

  static {
    RANKED_TYPE.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
    RANKED_TYPE.setTokenized(true);
    RANKED_TYPE.setStored(false);
    RANKED_TYPE.freeze();
  }

  private Documents() {}

  /**
   * The FILE document: manifest entry plus the n-grams of its lines and path, a binary value the
   * gram index inverts ({@link GramIndexFormat}; none when the file has no gram).
   */
  public static Document file(FileEntry e, GramSet grams) {
    Document d = new Document();
    d.add(new StringField(Schema.TYPE, Schema.TYPE_FILE, Field.Store.NO));
    d.add(new StringField(Schema.PATH, e.path(), Field.Store.YES));
    d.add(new StringField(Schema.FILE_KEY, e.path(), Field.Store.NO));
    d.add(new SortedDocValuesField(Schema.PATH_SORT, new BytesRef(e.path())));
    d.add(new BinaryDocValuesField(Schema.HASH, Hashing.toStored(e.hash())));
    d.add(new NumericDocValuesField(Schema.SIZE, e.size()));
    d.add(new NumericDocValuesField(Schema.MTIME_NS, e.mtimeNs()));
    d.add(new NumericDocValuesField(Schema.RECORDED_MS, e.recordedMs()));
    d.add(new SortedDocValuesField(Schema.FILE_LANGUAGE, new BytesRef(e.language())));
    d.add(new NumericDocValuesField(Schema.CHUNK_COUNT, e.chunks()));
    long[] sorted = grams.sortedGrams();
    if (sorted.length > 0) {
      d.add(new BinaryDocValuesField(Schema.FILE_GRAMS, GramIndexFormat.encode(sorted)));
    }
    addNoRankedTerms(d);
    return d;
  }

  /**
   * Adds the ranked fields without any term to a document that is not a chunk, so that every
   * document of a segment has their norms (zero here): Lucene then stores and reads them densely,
   * by document number, instead of through a sparse set; its writer read them that way for every
   * posting it flushed. A field without a term counts for neither BM25's document count nor its
   * average length.
   */
  private static void addNoRankedTerms(Document d) {
    for (String field : RANKED_FIELDS) {
      d.add(CountedTerms.NONE.field(field, RANKED_TYPE));
    }
  }

  /** The SKIPPED document of a file left out by its content. */
  public static Document skipped(SkippedFile f) {
    Document d = new Document();
    d.add(new StringField(Schema.TYPE, Schema.TYPE_SKIPPED, Field.Store.NO));
    d.add(new StringField(Schema.PATH, f.path(), Field.Store.YES));
    d.add(new StringField(Schema.SKIP_KEY, f.path(), Field.Store.NO));
    d.add(new SortedDocValuesField(Schema.PATH_SORT, new BytesRef(f.path())));
    d.add(new NumericDocValuesField(Schema.SIZE, f.size()));
    d.add(new NumericDocValuesField(Schema.MTIME_NS, f.mtimeNs()));
    d.add(new NumericDocValuesField(Schema.RECORDED_MS, f.recordedMs()));
    d.add(new SortedDocValuesField(Schema.SKIP_REASON, new BytesRef(f.reason().name())));
    addNoRankedTerms(d);
    return d;
  }

  /** The VECTOR document of one distinct text embedded, its vector coded as {@code code} says. */
  public static Document vector(byte[] hash, float[] vector, long createdMs, VectorCode code) {
    BytesRef key = new BytesRef(hash);
    Document d = new Document();
    d.add(new StringField(Schema.TYPE, Schema.TYPE_VECTOR, Field.Store.NO));
    d.add(new BinaryDocValuesField(Schema.VEC_KEY, key));
    d.add(new KnnByteVectorField(code.field(vector.length), code.encode(vector),
        VectorSimilarityFunction.COSINE));
    d.add(new NumericDocValuesField(Schema.VEC_CREATED, createdMs));
    addNoRankedTerms(d);
    return d;
  }

  /**
   * The CHUNK documents of a file, each keyed by its hash in {@code hashes} (of the text embedded,
   * {@link EmbedText}), or without keys when {@code hashes} is null (a lexical-only index); their
   * analyzed fields counted by {@code terms} (the calling thread's).
   */
  public static List<Document> chunks(ChunkTerms terms, String path, String language,
      List<Chunk> chunks, @Nullable List<byte[]> hashes) {
    List<Document> docs = new ArrayList<>(chunks.size());
    CountedTerms pathTerms = terms.code(path.replace('/', ' ').replace('.', ' '));
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      Document d = new Document();
      d.add(new StringField(Schema.TYPE, Schema.TYPE_CHUNK, Field.Store.NO));
      d.add(new StringField(Schema.PATH, path, Field.Store.YES));
      d.add(new StoredField(Schema.CHUNK_RECORD, ChunkRecord.of(i, c, language).encode()));
      if (hashes != null) {
        BytesRef hash = new BytesRef(hashes.get(i));
        d.add(new StringField(Schema.CHUNK_HASH, hash, Field.Store.NO));
        d.add(new BinaryDocValuesField(Schema.CHUNK_HASH, hash));
      }
      StringJoiner names = new StringJoiner(" ");
      for (Chunk.Symbol s : c.symbols()) {
        names.add(s.name());
      }
      ChunkTerms.CodeAndProse text = terms.codeAndProse(c.text());
      d.add(text.code().field(Schema.BODY, RANKED_TYPE));
      d.add(terms.code(names.toString()).field(Schema.SYMBOL, RANKED_TYPE));
      d.add(pathTerms.field(Schema.PATH_TEXT, RANKED_TYPE));
      d.add(text.prose().field(Schema.PROSE, RANKED_TYPE));
      docs.add(d);
    }
    return docs;
  }
}
