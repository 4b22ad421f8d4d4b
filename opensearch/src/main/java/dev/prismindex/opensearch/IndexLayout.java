package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.StoreFields;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.jspecify.annotations.Nullable;

/**
 * The layout of a cluster index (its repositories' documents side by side, each routed by its
 * repository: {@link Slice}): its settings and mapping (field names of its own,
 * the ranked ones the engine's {@link StoreFields}), the {@code _meta} that pins the format, the
 * analyzer and the embedding model ({@link CommitRecord}'s keys), and the analysis of the ranked
 * fields.
 *
 * <p>The ranked fields ({@code body}, {@code symbol}, {@code path_text}, {@code prose}) are sent
 * pre-analyzed by the engine's own analyzer ({@code WriteSpec#analyzer}) and rebuilt token for token, position for
 * position, by OpenSearch's {@code whitespace} tokenizer and {@code pattern_capture} filter
 * ({@link #STACKED}): the cluster's BM25 sees exactly the terms, frequencies and field lengths of
 * the local index, and the lexical query's terms (the same analyzer's) match them by
 * construction.
 */
final class IndexLayout {

  /** The cluster format this code writes; an index of another one is refused. */
  static final String FORMAT = "opensearch-3";

  // The documents' fields (the local index's names, where it has the field).
  static final String TYPE = "type";
  static final String TYPE_FILE = "file";
  static final String TYPE_CHUNK = "chunk";
  static final String TYPE_SKIPPED = "skipped";
  /** The repository a document belongs to (its routing too: {@link Slice}). */
  static final String REPOSITORY = "repo";
  static final String PATH = StoreFields.PATH;
  static final String HASH = "hash";
  static final String SIZE = "size";
  static final String MTIME_NS = "mtime_ns";
  static final String RECORDED_MS = "recorded_ms";
  static final String LANGUAGE = "language";
  static final String CHUNK_COUNT = "chunk_count";
  static final String SKIP_REASON = "skip_reason";
  static final String CHUNK_ID = "chunk_id";
  static final String CHUNK_HASH = "chunk_hash";
  static final String START_LINE = "start_line";
  static final String END_LINE = "end_line";
  static final String SYMBOLS = "symbols";
  static final String PARENT = "parent";
  /** The ranked fields, by the kernel's names ({@link StoreFields}); sent pre-analyzed. */
  static final List<String> RANKED = List.of(StoreFields.BODY, StoreFields.SYMBOL,
      StoreFields.PATH_TEXT, StoreFields.PROSE);

  static final String META_TYPE = "meta";
  static final String STATE = "state";
  static final String STATE_READY = "ready";
  static final String STATE_WRITING = "writing";
  static final String ORDINAL = "ordinal";
  /** The FILE document's n-grams ({@code FileGrams}: the local index's, as keywords). */
  static final String GRAMS = "grams";
  static final String VECTOR = "vector";
  /**
   * The FILE document's content as indexed, when the index keeps it ({@link
   * OpenSearchOptions#storeContent()}): the text when it is valid UTF-8, else {@link
   * #CONTENT_BYTES}. Not indexed; a search without the working tree verifies against it.
   */
  static final String CONTENT = "content";
  /** The content of a file that is not valid UTF-8, as bytes (base64 in the JSON). */
  static final String CONTENT_BYTES = "content_bytes";
  /** What reading a FILE document as a manifest entry leaves out of {@code _source}. */
  static final String NOT_MANIFEST = GRAMS + "," + CONTENT + "," + CONTENT_BYTES;
  /** The analyzer of the pre-analyzed ranked fields. */
  static final String STACKED = "prism_stacked";

  private IndexLayout() {}

  /** The body of the create-index request ({@code bulkLoad}: with {@link BulkLoad#settings}). */
  static ObjectNode createBody(OpenSearchOptions o, String analyzerVersion,
      @Nullable String modelId, int dimension, boolean bulkLoad) {
    ObjectNode root = Cluster.JSON.createObjectNode();
    ObjectNode index = root.putObject("settings").putObject("index");
    index.put("number_of_shards", o.shards());
    index.put("number_of_replicas", o.replicas());
    if (bulkLoad) {
      BulkLoad.settings(index);
    }
    if (modelId != null) {
      index.put("knn", true);
    }
    // Pre-analyzed text: one whitespace-separated group per position, its stacked tokens joined
    // by '|' ("parseduration|parse|duration"); pattern_capture emits the first token of a group at
    // a new position and the others stacked on it, as the engine's analyzer did, so term
    // frequencies and field lengths (BM25 norms) are the local index's.
    ObjectNode analysis = root.with("settings").with("index").putObject("analysis");
    analysis.putObject("tokenizer").putObject("prism_groups").put("type", "whitespace")
        .put("max_token_length", 8192);
    ObjectNode stack = analysis.putObject("filter").putObject("prism_stack");
    stack.put("type", "pattern_capture");
    stack.put("preserve_original", false);
    stack.putArray("patterns").add("([^|]+)");
    ObjectNode stacked = analysis.putObject("analyzer").putObject(STACKED);
    stacked.put("type", "custom");
    stacked.put("tokenizer", "prism_groups");
    stacked.putArray("filter").add("prism_stack");
    ObjectNode mappings = root.putObject("mappings");
    mappings.put("dynamic", "strict");
    // Every document is read and written with its repository's routing: one without is refused.
    mappings.putObject("_routing").put("required", true);
    ObjectNode meta = mappings.putObject("_meta");
    meta.put(CommitRecord.FORMAT, FORMAT);
    meta.put(CommitRecord.ANALYZER, analyzerVersion);
    meta.put(CommitRecord.EMBEDDER_ID, modelId == null ? "" : modelId);
    meta.put(CommitRecord.EMBEDDER_DIM, modelId == null ? 0 : dimension);
    meta.put(CommitRecord.CONTENT, o.storeContent() ? "stored" : "none");
    ArrayNode excludes = mappings.putObject("_source").putArray("excludes");
    RANKED.forEach(excludes::add);
    excludes.add(GRAMS);
    ObjectNode p = mappings.putObject("properties");
    keyword(p, TYPE, true);
    keyword(p, REPOSITORY, true);
    keyword(p, PATH, true);
    keyword(p, HASH, false);
    number(p, SIZE, "long");
    number(p, MTIME_NS, "long");
    number(p, RECORDED_MS, "long");
    keyword(p, LANGUAGE, false);
    number(p, CHUNK_COUNT, "integer");
    keyword(p, SKIP_REASON, false);
    p.putObject(GRAMS).put("type", "keyword").put("doc_values", false)
        .put("index_options", "docs").put("norms", false);
    keyword(p, CHUNK_ID, false);
    p.putObject(ORDINAL).put("type", "integer");
    keyword(p, CHUNK_HASH, false);
    number(p, START_LINE, "integer");
    number(p, END_LINE, "integer");
    keyword(p, SYMBOLS, false);
    keyword(p, PARENT, false);
    p.putObject(CONTENT).put("type", "text").put("index", false).put("norms", false);
    p.putObject(CONTENT_BYTES).put("type", "binary");
    for (String f : RANKED) {
      p.putObject(f).put("type", "text").put("analyzer", STACKED)
          .put("index_options", "freqs");
    }
    if (modelId != null) {
      ObjectNode v = p.putObject(VECTOR);
      v.put("type", "knn_vector");
      v.put("dimension", dimension);
      v.put("data_type", "byte"); // the local index's int8 encoding (Int8Vectors), a quarter of float
      ObjectNode method = v.putObject("method");
      method.put("name", "hnsw");
      method.put("engine", "lucene");
      method.put("space_type", "cosinesimil");
    }
    keyword(p, STATE, true);
    keyword(p, "revision", false);
    number(p, "updated_ms", "long");
    number(p, "files", "long");
    number(p, "chunks", "long");
    keyword(p, "skipped", false);
    return root;
  }

  private static void keyword(ObjectNode p, String name, boolean indexed) {
    ObjectNode f = p.putObject(name).put("type", "keyword");
    if (!indexed) {
      f.put("index", false);
    }
  }

  private static void number(ObjectNode p, String name, String type) {
    p.putObject(name).put("type", type).put("index", false);
  }

  /**
   * The tokens of {@code text} for {@code field} by the engine's analyzer: one space-separated
   * group per position, the tokens stacked on it joined by {@code '|'} (see {@link #STACKED}).
   */
  static String tokens(Analyzer analyzer, String field, String text) {
    StringBuilder out = new StringBuilder(text.length());
    try (TokenStream ts = analyzer.tokenStream(field, new StringReader(text))) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        if (out.length() > 0) {
          out.append(inc.getPositionIncrement() == 0 ? '|' : ' ');
        }
        out.append(term.buffer(), 0, term.length());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader never fails
    }
    return out.toString();
  }
}
