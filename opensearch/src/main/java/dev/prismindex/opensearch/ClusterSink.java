package dev.prismindex.opensearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.ChunkVectors;
import dev.prismindex.engine.spi.DocumentSink;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.FileGrams;
import dev.prismindex.engine.spi.SkippedFile;
import dev.prismindex.engine.spi.StoreFields;
import dev.prismindex.engine.spi.VectorCodes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.jspecify.annotations.Nullable;

/**
 * The {@link DocumentSink} of a repository's slice of a cluster index ({@link Slice}: its
 * documents carry it, ids and routing are its own): the pipeline's documents as bulk requests, sent
 * once they hold about {@link OpenSearchOptions#bulkBytes()} bytes, chunk vectors embedded just
 * before (by the engine's model: {@link ChunkVectors}).
 *
 * <p><b>The FILE document is a file's commit record.</b> Each send of what is pending makes two
 * bulk requests: first the chunks, skip records and deletions, then, for the paths all of whose
 * first-phase items succeeded, their FILE documents (or FILE deletions). A file whose FILE document is missing or
 * old is re-indexed by the next run, so a refused item, a node lost mid-bulk or a crash loses no
 * acknowledged file: the run fails, and running it again completes it. Items refused with 429 are
 * resent with backoff. Thread-safe (the indexer's workers call it concurrently).
 */
final class ClusterSink implements DocumentSink {

  /** One bulk item: an action and, for an index action, its document. */
  private record Item(String action, @Nullable ObjectNode doc) {}

  /** The items of one path, by phase. */
  private static final class Ops {
    final List<Item> first = new ArrayList<>();
    final List<Item> second = new ArrayList<>();
  }

  private final Cluster cluster;
  private final Slice slice;
  private final Analyzer analyzer;
  private final @Nullable ChunkVectors vectors;
  private final long bulkBytes;
  private final int retries;
  private final boolean storeContent;
  private final java.util.concurrent.@Nullable Semaphore inFlight;

  private final Map<String, Ops> pending = new LinkedHashMap<>();
  private final List<ObjectNode> unembedded = new ArrayList<>();
  private final List<String> unembeddedTexts = new ArrayList<>();
  private long pendingBytes;
  private final Set<String> failed = new LinkedHashSet<>();
  private @Nullable String firstFailure;

  /**
   * @param analyzer the engine's analyzer of the ranked fields
   * @param vectors the model whose vectors the index holds, or null when it holds none
   */
  ClusterSink(Cluster cluster, Slice slice, Analyzer analyzer, @Nullable ChunkVectors vectors,
      long bulkBytes, int retries) {
    this(cluster, slice, analyzer, vectors, bulkBytes, retries, false, null);
  }

  /**
   * @param storeContent whether FILE documents keep the file's content
   * @param inFlight permits for bulk requests in flight, shared by the sinks of several runs (one
   *     permit per request while it is sent); null for no bound but this sink's own (one at a time)
   */
  ClusterSink(Cluster cluster, Slice slice, Analyzer analyzer, @Nullable ChunkVectors vectors,
      long bulkBytes, int retries, boolean storeContent,
      java.util.concurrent.@Nullable Semaphore inFlight) {
    this.cluster = cluster;
    this.slice = slice;
    this.analyzer = analyzer;
    this.vectors = vectors;
    this.bulkBytes = bulkBytes;
    this.retries = retries;
    this.storeContent = storeContent;
    this.inFlight = inFlight;
  }

  @Override
  public void putFile(FileEntry entry, FileGrams grams, List<Chunk> chunks,
      @Nullable List<byte[]> keys, @Nullable FileEntry previous, boolean hadSkipRecord)
      throws IOException {
    putFile(entry, grams, chunks, keys, previous, hadSkipRecord, null);
  }

  @Override
  public synchronized void putFile(FileEntry entry, FileGrams grams, List<Chunk> chunks,
      @Nullable List<byte[]> keys, @Nullable FileEntry previous, boolean hadSkipRecord,
      byte @Nullable [] content) throws IOException {
    if (keys == null) {
      throw new IllegalArgumentException("a cluster index keys every chunk");
    }
    String path = entry.path();
    Ops ops = ops(path);
    String pathText = path.replace('/', ' ').replace('.', ' ');
    long bytes = 0;
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      ObjectNode d = Cluster.JSON.createObjectNode();
      d.put(IndexLayout.TYPE, IndexLayout.TYPE_CHUNK);
      d.put(IndexLayout.REPOSITORY, slice.repository());
      d.put(IndexLayout.PATH, path);
      d.put(IndexLayout.CHUNK_ID, path + "#" + i);
      d.put(IndexLayout.ORDINAL, i);
      d.put(IndexLayout.CHUNK_HASH, HexFormat.of().formatHex(keys.get(i)));
      d.put(IndexLayout.START_LINE, c.startLine());
      d.put(IndexLayout.END_LINE, c.endLine());
      d.put(IndexLayout.LANGUAGE, entry.language());
      if (c.parent() != null) {
        d.put(IndexLayout.PARENT, c.parent());
      }
      ArrayNode symbols = d.putArray(IndexLayout.SYMBOLS);
      StringBuilder names = new StringBuilder();
      for (Chunk.Symbol s : c.symbols()) {
        symbols.add(s.line() + ":" + s.name());
        names.append(names.length() == 0 ? "" : " ").append(s.name());
      }
      d.put(StoreFields.BODY, IndexLayout.tokens(analyzer, StoreFields.BODY, c.text()));
      d.put(StoreFields.SYMBOL, IndexLayout.tokens(analyzer, StoreFields.SYMBOL, names.toString()));
      d.put(StoreFields.PATH_TEXT, IndexLayout.tokens(analyzer, StoreFields.PATH_TEXT, pathText));
      d.put(StoreFields.PROSE, IndexLayout.tokens(analyzer, StoreFields.PROSE, c.text()));
      if (vectors != null) {
        unembedded.add(d);
        unembeddedTexts.add(vectors.text(path, c));
        bytes += vectors.dimension() * 5L;
      }
      ops.first.add(new Item(action("index", ClusterIds.chunk(path, i)), d));
      bytes += 3L * c.text().length() + 200;
    }
    if (previous != null) {
      for (int i = chunks.size(); i < previous.chunks(); i++) {
        ops.first.add(new Item(action("delete", ClusterIds.chunk(path, i)), null));
      }
    }
    if (previous != null || hadSkipRecord) {
      ops.first.add(new Item(action("delete", ClusterIds.skipped(path)), null));
    }
    ObjectNode f = fileDoc(entry, grams, storeContent ? content : null);
    ops.second.add(new Item(action("index", ClusterIds.file(path)), f));
    account(bytes + entry.size() + 300);
  }

  @Override
  public void restat(FileEntry entry, FileGrams grams) throws IOException {
    restat(entry, grams, null);
  }

  @Override
  public synchronized void restat(FileEntry entry, FileGrams grams, byte @Nullable [] content)
      throws IOException {
    ops(entry.path()).second.add(new Item(action("index", ClusterIds.file(entry.path())),
        fileDoc(entry, grams, storeContent ? content : null)));
    account(2 * entry.size() + 300);
  }

  @Override
  public synchronized void putSkipped(SkippedFile record, @Nullable FileEntry previous,
      boolean hadSkipRecord) throws IOException {
    String path = record.path();
    Ops ops = ops(path);
    if (previous != null) {
      deleteChunks(previous, ops);
      ops.second.add(new Item(action("delete", ClusterIds.file(path)), null));
    }
    ObjectNode d = Cluster.JSON.createObjectNode();
    d.put(IndexLayout.TYPE, IndexLayout.TYPE_SKIPPED);
    d.put(IndexLayout.REPOSITORY, slice.repository());
    d.put(IndexLayout.PATH, path);
    d.put(IndexLayout.SIZE, record.size());
    d.put(IndexLayout.MTIME_NS, record.mtimeNs());
    d.put(IndexLayout.RECORDED_MS, record.recordedMs());
    d.put(IndexLayout.SKIP_REASON, record.reason().name());
    ops.first.add(new Item(action("index", ClusterIds.skipped(path)), d));
    account(300);
  }

  @Override
  public synchronized void deletePath(FileEntry previous) throws IOException {
    String path = previous.path();
    Ops ops = ops(path);
    deleteChunks(previous, ops);
    ops.first.add(new Item(action("delete", ClusterIds.skipped(path)), null));
    ops.second.add(new Item(action("delete", ClusterIds.file(path)), null));
    account(100);
  }

  @Override
  public synchronized void deleteSkip(String path) throws IOException {
    ops(path).first.add(new Item(action("delete", ClusterIds.skipped(path)), null));
    account(100);
  }

  private void deleteChunks(FileEntry old, Ops ops) {
    for (int i = 0; i < old.chunks(); i++) {
      ops.first.add(new Item(action("delete", ClusterIds.chunk(old.path(), i)), null));
    }
  }

  /** Sends what is pending; then throws when any item of this run was refused. */
  synchronized void finish() throws IOException {
    sendPending();
    if (!failed.isEmpty()) {
      throw new ClusterUnavailableException("the cluster refused the documents of "
          + failed.size() + " file(s) (first: " + firstFailure + "); those files keep their "
          + "previous state, and running the update again completes it");
    }
  }

  private Ops ops(String path) {
    return pending.computeIfAbsent(path, k -> new Ops());
  }

  private void account(long bytes) throws IOException {
    pendingBytes += bytes;
    if (pendingBytes >= bulkBytes) {
      sendPending();
    }
  }

  /** The FILE document: the manifest entry, the grams and, when given, the content. */
  private ObjectNode fileDoc(FileEntry e, FileGrams grams, byte @Nullable [] content) {
    ObjectNode d = Cluster.JSON.createObjectNode();
    d.put(IndexLayout.TYPE, IndexLayout.TYPE_FILE);
    d.put(IndexLayout.REPOSITORY, slice.repository());
    d.put(IndexLayout.PATH, e.path());
    d.put(IndexLayout.HASH, e.hash());
    d.put(IndexLayout.SIZE, e.size());
    d.put(IndexLayout.MTIME_NS, e.mtimeNs());
    d.put(IndexLayout.RECORDED_MS, e.recordedMs());
    d.put(IndexLayout.LANGUAGE, e.language());
    d.put(IndexLayout.CHUNK_COUNT, e.chunks());
    ArrayNode g = d.putArray(IndexLayout.GRAMS);
    grams.grams().forEach(g::add);
    if (content != null) {
      String text = utf8(content);
      if (text != null) {
        d.put(IndexLayout.CONTENT, text);
      } else {
        d.put(IndexLayout.CONTENT_BYTES, content);
      }
    }
    return d;
  }

  /** {@code bytes} as text when they are valid UTF-8 (so the text gives them back), else null. */
  static @Nullable String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
          .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      return null;
    }
  }

  /** A bulk action on the document {@code id} ({@link ClusterIds}) of this sink's repository. */
  private String action(String kind, String id) {
    ObjectNode a = Cluster.JSON.createObjectNode();
    a.putObject(kind).put("_id", slice.id(id));
    return a.toString();
  }

  private void sendPending() throws IOException {
    if (pending.isEmpty()) {
      return;
    }
    embedPending();
    Map<String, Ops> batch = new LinkedHashMap<>(pending);
    pending.clear();
    pendingBytes = 0;
    List<Item> items = new ArrayList<>();
    List<String> owners = new ArrayList<>();
    batch.forEach((path, ops) -> ops.first.forEach(i -> {
      items.add(i);
      owners.add(path);
    }));
    Set<String> refused = bulk(items, owners);
    items.clear();
    owners.clear();
    batch.forEach((path, ops) -> {
      if (!refused.contains(path)) {
        ops.second.forEach(i -> {
          items.add(i);
          owners.add(path);
        });
      }
    });
    refused.addAll(bulk(items, owners));
    failed.addAll(refused);
  }

  /**
   * Sends the items and returns the paths of those refused (a delete of a missing document is not
   * refused); items refused with 429 are sent again, after a pause, up to the retry limit.
   */
  private Set<String> bulk(List<Item> items, List<String> owners) throws IOException {
    Set<String> refused = new LinkedHashSet<>();
    List<Item> todo = items;
    List<String> who = owners;
    for (int attempt = 0; !todo.isEmpty(); attempt++) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      for (Item i : todo) {
        body.writeBytes(i.action().getBytes(StandardCharsets.UTF_8));
        body.write('\n');
        if (i.doc() != null) {
          body.writeBytes(Cluster.JSON.writeValueAsBytes(i.doc()));
          body.write('\n');
        }
      }
      Cluster.Reply reply = sendBulk(body.toByteArray());
      if (!reply.ok()) {
        throw ClusterRequestException.of("a bulk request", reply);
      }
      List<Item> again = new ArrayList<>();
      List<String> againWho = new ArrayList<>();
      JsonNode results = reply.body().path("items");
      for (int n = 0; n < todo.size(); n++) {
        JsonNode r = results.path(n);
        JsonNode result = r.isObject() && r.size() > 0 ? r.elements().next() : null;
        int status = result == null ? 0 : result.path("status").asInt();
        if (status >= 200 && status < 300 || status == 404 && todo.get(n).doc() == null) {
          continue;
        }
        if (status == 429 && attempt < retries) {
          again.add(todo.get(n));
          againWho.add(who.get(n));
          continue;
        }
        refused.add(who.get(n));
        if (firstFailure == null) {
          firstFailure = who.get(n) + ": " + (result == null ? "no answer for the item"
              : "HTTP " + status + " " + result.path("error").path("reason").asText(""));
        }
      }
      if (!again.isEmpty()) {
        pause(attempt);
      }
      todo = again;
      who = againWho;
    }
    return refused;
  }

  /** Sends one bulk request, holding a permit of the shared bound while it is in flight. */
  private Cluster.Reply sendBulk(byte[] body) throws IOException {
    java.util.concurrent.Semaphore gate = inFlight;
    if (gate == null) {
      return cluster.sendBulk(slice.url("_bulk"), slice.routed(Map.of()), body);
    }
    try {
      gate.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a bulk slot");
    }
    try {
      return cluster.sendBulk(slice.url("_bulk"), slice.routed(Map.of()), body);
    } finally {
      gate.release();
    }
  }

  /** Embeds the chunk texts of the pending chunk documents and sets their vectors. */
  private void embedPending() throws IOException {
    ChunkVectors model = vectors;
    if (model == null || unembedded.isEmpty()) {
      return;
    }
    for (int from = 0; from < unembedded.size(); from += model.batchSize()) {
      int to = Math.min(unembedded.size(), from + model.batchSize());
      List<float @Nullable []> unit = model.embed(unembeddedTexts.subList(from, to));
      for (int i = from; i < to; i++) {
        float[] v = unit.get(i - from);
        if (v == null) {
          continue; // cosine is undefined for a zero vector: the chunk has no vector
        }
        ArrayNode a = unembedded.get(i).putArray(IndexLayout.VECTOR);
        for (byte x : VectorCodes.int8(v)) {
          a.add(x);
        }
      }
    }
    unembedded.clear();
    unembeddedTexts.clear();
  }

  private static void pause(int attempt) throws InterruptedIOException {
    try {
      Thread.sleep(Math.min(5_000L, 200L << Math.min(attempt, 10)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to resend");
    }
  }
}
