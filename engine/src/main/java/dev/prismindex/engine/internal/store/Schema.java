package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.internal.codec.GramIndexFormat;
import dev.prismindex.engine.internal.codec.PackedVectorsFormat;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.StoreFields;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The Lucene schema of the engine. Four document types share one index:
 *
 * <ul>
 *   <li><b>FILE</b> (one per indexed file; together they are the manifest): {@link #TYPE}=file,
 *       {@link #PATH} (exact, stored), {@link #FILE_KEY} (exact), and as doc values (read
 *       column-wise when the manifest is loaded) {@link #PATH_SORT} (the path, also for path
 *       order), {@link #HASH} (BLAKE3-256, its 32 bytes; the 64 hex digits' ASCII bytes before
 *       format 8), {@link #SIZE}, {@link #MTIME_NS},
 *       {@link #RECORDED_MS} (when the stat data was taken), {@link #FILE_LANGUAGE},
 *       {@link #CHUNK_COUNT}; and {@link #FILE_GRAMS} (the bigrams and trigrams of the lower-cased
 *       lines and path, {@code Grams}, in the gram index, {@link GramIndexFormat}; terms of {@link
 *       #GRAMS} before format 10).</li>
 *   <li><b>SKIPPED</b> (one per file a walk read and left out by its content: binary, a private
 *       key): {@link #TYPE}=skipped, {@link #PATH}, {@link #SKIP_KEY} (exact), and as doc values
 *       {@link #PATH_SORT}, {@link #SIZE}, {@link #MTIME_NS}, {@link #RECORDED_MS} and
 *       {@link #SKIP_REASON}: a later run that finds the same stat data skips the file unread.</li>
 *   <li><b>CHUNK</b>: {@link #TYPE}=chunk, {@link #PATH}, {@link #CHUNK_RECORD} (stored: the
 *       chunk's ordinal in its file, lines, language, enclosing type and definitions, {@link
 *       ChunkRecord}; format 7 and older stored {@link #CHUNK_ID} ({@code path#ordinal}), {@link
 *       #START_LINE}, {@link #END_LINE}, {@link #SYMBOLS} ({@code line:name} list), {@link #PARENT}
 *       and {@link #LANGUAGE} instead), {@link #CHUNK_HASH} (the first {@link #chunkKeyBytes} bytes
 *       of the BLAKE3 of the text embedded for the chunk, {@code EmbedText}: the embedding-cache
 *       key), and the analyzed fields {@link #BODY},
 *       {@link #SYMBOL} and {@link #PATH_TEXT} (code analysis) and {@link #PROSE} (the chunk text
 *       as English prose), all four with term frequencies and no positions.</li>
 *   <li><b>VECTOR</b> (one per distinct chunk text embedded; the embedding cache):
 *       {@link #TYPE}=vector, {@link #VEC_KEY} (the text's {@link #CHUNK_HASH}, binary doc values
 *       only; format 8 and older wrote it as {@link #VEC_HASH}, indexed and doc
 *       values), {@link #VEC_CREATED}, and the vector in {@link VectorCode#field}: packed
 *       {@value PackedVectorsFormat#BITS}-bit codes from format 11 on, int8 codes in an index whose
 *       vectors are older ({@link VectorCode}; no float copy).</li>
 * </ul>
 *
 * <p>File contents are never stored; search reads the file (after checking it against the
 * manifest) to build snippets and verify literal matches.
 */
public final class Schema {
  public static final String TYPE = "type";
  public static final String TYPE_FILE = "file";
  public static final String TYPE_CHUNK = "chunk";
  public static final String TYPE_SKIPPED = "skipped";

  public static final String PATH = StoreFields.PATH;
  public static final String FILE_KEY = "file_key";
  public static final String PATH_SORT = "path_sort";
  public static final String HASH = "hash";
  public static final String SIZE = "size";
  public static final String MTIME_NS = "mtime_ns";
  public static final String RECORDED_MS = "recorded_ms";
  public static final String LANGUAGE = "language";
  public static final String CHUNK_COUNT = "chunk_count";
  /** The language of a FILE document (doc values; {@link #LANGUAGE} is a CHUNK's stored field). */
  public static final String FILE_LANGUAGE = "file_language";
  /** The exact path of a SKIPPED document. */
  public static final String SKIP_KEY = "skip_key";
  /** Why a SKIPPED document's file is left out ({@link dev.prismindex.engine.SkipReason} name). */
  public static final String SKIP_REASON = "skip_reason";
  /**
   * Format 9 and older: a FILE document's n-grams as terms (DOCS only); a segment of such an index
   * is searched by them until a merge drops its last FILE document.
   */
  public static final String GRAMS = "grams";
  /**
   * A FILE document's n-grams (format 10 on): one binary value per document, which the segment
   * holds as an inverted index of its own ({@link GramIndexFormat}).
   */
  public static final String FILE_GRAMS = "file_grams";

  /** Stored on a CHUNK: its {@link ChunkRecord} (ordinal, lines, language, parent, definitions). */
  public static final String CHUNK_RECORD = "chunk_record";
  /** Format 7 and older: the chunk's id, {@code path#ordinal} (format 8: {@link #CHUNK_RECORD}). */
  public static final String CHUNK_ID = "chunk_id";
  public static final String CHUNK_HASH = "chunk_hash";
  public static final String START_LINE = "start_line";
  public static final String END_LINE = "end_line";
  public static final String SYMBOLS = "symbols";
  /** Stored on a CHUNK: the name of the type its code sits in (absent at a file's top level). */
  public static final String PARENT = "parent";
  public static final String BODY = StoreFields.BODY;
  public static final String SYMBOL = StoreFields.SYMBOL;
  public static final String PATH_TEXT = StoreFields.PATH_TEXT;
  /** The chunk text analyzed as English prose: identifier words, no stop words, stemmed. */
  public static final String PROSE = StoreFields.PROSE;

  public static final String TYPE_VECTOR = "vector";
  public static final String VEC_HASH = "vec_hash";
  /**
   * A VECTOR document's key, binary doc values only (format 9 on; older vectors have {@link
   * #VEC_HASH}, a term as well, which Lucene would not let a document of the same field leave out).
   */
  public static final String VEC_KEY = "vec_key";
  public static final String VEC_CREATED = "vec_created";

  /** Commit metadata keys. */
  public static final String META_FORMAT = CommitRecord.FORMAT;
  public static final String META_ANALYZER = CommitRecord.ANALYZER;
  public static final String META_EMBEDDER_ID = CommitRecord.EMBEDDER_ID;
  public static final String META_EMBEDDER_DIM = CommitRecord.EMBEDDER_DIM;
  /**
   * The kind of the model of the index's vectors ({@code static} or {@code transformer}, {@link
   * dev.prismindex.embed.Embedder.Kind}), written with {@link #META_EMBEDDER_ID}; absent in an
   * index whose vectors predate it.
   */
  public static final String META_EMBEDDER_KIND = "prism.embedder.kind";
  public static final String META_REVISION = CommitRecord.REVISION;
  /** The content-rule fingerprint the last full walk judged every file by. */
  public static final String META_RULES = CommitRecord.RULES;
  public static final String META_UPDATED_AT = CommitRecord.UPDATED_AT;
  public static final String META_FILES = CommitRecord.FILES;
  public static final String META_CHUNKS = CommitRecord.CHUNKS;
  /** CHUNK documents whose text has a vector (the numerator of semantic coverage). */
  public static final String META_CHUNKS_EMBEDDED = CommitRecord.CHUNKS_EMBEDDED;
  /** VECTOR documents (distinct texts embedded, cache included). */
  public static final String META_VECTORS = "prism.vectors";
  /**
   * Files the last walking run left out of the index, by reason: {@code binary=2,secret=1}
   * ({@link dev.prismindex.engine.SkipReason} names in lower case, sorted; empty when none).
   */
  public static final String META_SKIPPED = CommitRecord.SKIPPED;
  /**
   * Whether the CHUNK documents carry their vector keys ({@link #CHUNK_HASH}): {@code false} in a
   * lexical-only index (no run that embeds has written it, so it has no vectors), whose chunks
   * carry none; {@code true}, or absent (format {@value #KEYED_FORMAT_VERSION}), otherwise.
   */
  public static final String META_CHUNK_KEYS = "prism.chunkKeys";

  /**
   * The length in bytes of the chunk-text keys ({@link #CHUNK_HASH}, {@link #VEC_KEY}) of the
   * index: {@value #CHUNK_KEY_BYTES} in an index whose first keys were written by format 8 or
   * later, 32 (the whole BLAKE3-256) before; absent means 32. An index keeps the length of the
   * keys it has (its vectors are found by them).
   */
  public static final String META_CHUNK_KEY_BYTES = "prism.chunkKeyBytes";

  /**
   * The length of the keys of an index without any: the first 16 bytes of the BLAKE3 output.
   * Two of a billion distinct texts share a key with a probability of about 1e-21.
   */
  public static final int CHUNK_KEY_BYTES = 16;

  /** The key length of an index from before {@link #META_CHUNK_KEY_BYTES}. */
  private static final int OLD_CHUNK_KEY_BYTES = 32;

  /** The index format this code writes. Bump on any schema change. */
  public static final String FORMAT_VERSION = "11";

  /** The format before the sign scan ({@link PackedVectorsFormat}), whose vectors had a graph. */
  private static final String GRAPH_FORMAT_VERSION = "10";

  /** The format before the gram index ({@link #FILE_GRAMS}). */
  private static final String GRAM_TERMS_FORMAT_VERSION = "9";

  /** The format before packed vectors ({@link VectorCode#PACKED}). */
  private static final String INT8_VECTORS_FORMAT_VERSION = "8";

  /** The format before {@link #META_CHUNK_KEY_BYTES}, when every key had 32 bytes. */
  private static final String LONG_KEYS_FORMAT_VERSION = "7";

  /** The format before {@link #META_CHUNK_KEYS}, when every chunk had its key. */
  private static final String KEYED_FORMAT_VERSION = "6";

  /**
   * Whether a local index of {@code format}, whose commit records the model {@code embedderId}
   * (null or empty: none), can be searched and updated by this code: its own format, {@value
   * #GRAPH_FORMAT_VERSION} and {@value #GRAM_TERMS_FORMAT_VERSION} (grams as terms of {@link
   * #GRAMS} in 9; so are those of the older formats) when they have no model, since their packed
   * vectors were written in a format that is gone (with a graph, named {@code PrismPacked7Hnsw}),
   * {@value #INT8_VECTORS_FORMAT_VERSION} (int8 vectors: an index keeps them, {@link
   * VectorCode#of}), {@value #LONG_KEYS_FORMAT_VERSION} (32-byte keys) or {@value
   * #KEYED_FORMAT_VERSION} (every chunk keyed, 32-byte keys), which the next commit records as
   * {@value #FORMAT_VERSION}, which older versions refuse.
   */
  public static boolean readsFormat(String format, @Nullable String embedderId) {
    boolean noVectors = embedderId == null || embedderId.isEmpty();
    return format.equals(FORMAT_VERSION)
        || noVectors && (format.equals(GRAPH_FORMAT_VERSION)
            || format.equals(GRAM_TERMS_FORMAT_VERSION))
        || format.equals(INT8_VECTORS_FORMAT_VERSION)
        || format.equals(LONG_KEYS_FORMAT_VERSION)
        || format.equals(KEYED_FORMAT_VERSION);
  }

  /**
   * The chunk-key length of an index with the commit metadata {@code meta} (an index without a
   * commit has {@value #CHUNK_KEY_BYTES}): the recorded one, else {@value #CHUNK_KEY_BYTES} when it
   * has no keys (lexical-only, format 7), else 32 (formats 6 and 7).
   */
  public static int chunkKeyBytes(Map<String, String> meta) {
    String recorded = meta.get(META_CHUNK_KEY_BYTES);
    if (recorded != null) {
      return Integer.parseInt(recorded);
    }
    return "false".equals(meta.get(META_CHUNK_KEYS)) ? CHUNK_KEY_BYTES : OLD_CHUNK_KEY_BYTES;
  }

  /** Whether {@code recorded}, a {@link #META_CHUNK_KEY_BYTES} value or null, is one this reads. */
  public static boolean readsChunkKeyBytes(@Nullable String recorded) {
    return recorded == null || recorded.equals(Integer.toString(CHUNK_KEY_BYTES))
        || recorded.equals(Integer.toString(OLD_CHUNK_KEY_BYTES));
  }

  private Schema() {}
}
