package dev.prismindex.engine.internal.pipeline;

import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.chunk.SourceLines;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.internal.walk.FileRules;
import dev.prismindex.engine.internal.walk.Languages;
import dev.prismindex.engine.internal.walk.WalkedFile;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.DocumentSink;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One indexing run into a {@link DocumentSink} (the local Lucene store's, or a plugged store's):
 * decides per file, by the manifest, whether it is unchanged (stat data where git's racy-timestamp
 * rule proves it, else the BLAKE3 hash), new, changed or gone, and replaces the file's documents
 * accordingly. Lock files, minified files ({@link FileRules#literalOnly}, or minified by
 * content) and files over {@code maxFileBytes} but within the exact-search cap ({@link
 * FileStat#exactCap}) get their FILE document only (n-grams for literal and regex search, no
 * chunks: never ranked). Files are processed on a bounded pool ({@link FilePool}: at most {@code 4
 * x threads} in flight, each holding at most one file of at most {@code maxFileBytes}, and one
 * worker at a time a larger one), so memory does not grow with the corpus. After the last file of
 * a large run the workers flush the sink side by side ({@link DocumentSink#flush}). The caller
 * commits or rolls back.
 */
public final class Indexer {

  private static final Logger LOG = LoggerFactory.getLogger(Indexer.class);

  /**
   * The fewest files after which the workers flush the sink side by side ({@link
   * DocumentSink#flush}) instead of leaving it all to the commit's one thread: a run this small
   * has little in memory.
   */
  static final int PARALLEL_FLUSH_MIN_FILES = 256;

  private final Path root;
  private final DocumentSink sink;
  private final Chunker chunker;
  private final FileRules rules;
  private final long maxFileBytes;
  /** The largest file read ({@link FileStat#exactCap}); one over {@code maxFileBytes} at a time. */
  private final long exactBytes;
  private final Semaphore large = new Semaphore(1);
  private final Clock clock;
  private final Map<String, FileEntry> before;
  /** The entries this run (re)wrote and the paths it removed: its change to {@code before}. */
  private final Map<String, FileEntry> written = new ConcurrentHashMap<>();
  private final Set<String> removed = ConcurrentHashMap.newKeySet();

  private final RunCounters count = new RunCounters();
  private final AtomicInteger filesDone = new AtomicInteger();
  private ChunkKeys keys = ChunkKeys.always();
  private IntConsumer fileDone = done -> {};
  /** Paths of the manifest whose chunks this run deleted (changed or deleted files). */
  private final Set<String> replaced = ConcurrentHashMap.newKeySet();
  /** The remembered content skips of the last commit ({@link #rememberSkipped}). */
  private Map<String, SkippedFile> skippedBefore = Map.of();
  /** Paths of {@link #skippedBefore} whose SKIPPED document this run kept or replaced. */
  private final Set<String> skipsSeen = ConcurrentHashMap.newKeySet();

  /**
   * @param sink the store the run writes to
   * @param before the manifest of the last commit (empty for a full rebuild; for a scoped refresh,
   *     its entries at or below the scope)
   */
  public Indexer(Path root, DocumentSink sink, Chunker chunker, FileRules rules,
      long maxFileBytes, Clock clock, Map<String, FileEntry> before) {
    this.root = root;
    this.sink = sink;
    this.chunker = chunker;
    this.rules = rules;
    this.maxFileBytes = maxFileBytes;
    this.exactBytes = FileStat.exactCap(maxFileBytes);
    this.clock = clock;
    this.before = before;
  }

  /**
   * What the run does about its chunks' vector keys ({@link ChunkKeys#always()} by default: every
   * chunk keyed, nothing counted).
   */
  public void keys(ChunkKeys value) {
    this.keys = value;
  }

  /** Whether the chunks this run writes carry their vector keys. */
  public boolean writesChunkKeys() {
    return keys.written();
  }

  /** The length of the vector keys of the chunks this run writes. */
  public int chunkKeyBytes() {
    return keys.keyBytes();
  }

  /**
   * The files the last commit remembers as left out by their content, for the paths this run
   * looks at (all of them for a whole walk, the scope's for a scoped one, the named ones for a
   * seam update): one whose stat data proves it unchanged is skipped again unread, one no longer
   * seen loses its record. Empty (the default) remembers nothing from before.
   */
  public void rememberSkipped(Map<String, SkippedFile> skipped) {
    this.skippedBefore = skipped;
  }

  /** Called (from worker threads) with the number of files done after each file. */
  public void onFileDone(IntConsumer listener) {
    this.fileDone = listener;
  }

  /** The counters so far. */
  public Counters counters() {
    return count.snapshot(keys.reused());
  }

  /**
   * The counters of a run.
   *
   * @param restat files whose content was unchanged but whose stat data was refreshed
   * @param chunksReused chunks written whose text already had a vector
   * @param skipRecords remembered content skips added, replaced or dropped
   */
  public record Counters(int hashed, int added, int changed, int deleted, int unchanged,
      int restat, Map<SkipReason, Integer> skipped, long chunksWritten, long chunksReused,
      int skipRecords) {
    /** Whether the run changed the index's documents. */
    public boolean wroteDocuments() {
      return added + changed + deleted + restat + skipRecords > 0;
    }
  }

  /** The paths of the manifest given at construction whose chunks the run deleted. */
  public Set<String> replacedPaths() {
    return replaced;
  }

  /** The manifest after the run (a new map on each call). */
  public Map<String, FileEntry> manifest() {
    Map<String, FileEntry> after = new HashMap<>(before);
    after.keySet().removeAll(removed);
    after.putAll(written);
    return after;
  }

  /** Counts a skip decided outside the indexer (by the walk). */
  public void countSkips(Map<SkipReason, Integer> walkSkips) {
    count.skips(walkSkips);
  }

  /**
   * Processes a walk: every listed path is checked in parallel, then every path of the manifest
   * given at construction that the walk did not produce (or that is now skipped) is deleted. For a
   * scoped walk that manifest holds only the entries at or below the scope, so nothing outside it
   * is deleted.
   */
  public void runWalk(List<WalkedFile> files, boolean verify, int threads) throws IOException {
    Map<String, Boolean> kept = new ConcurrentHashMap<>(files.size() * 2);
    processAll(files, WalkedFile::path, f -> FileStat.of(f, maxFileBytes), verify, threads, kept);
    for (String path : before.keySet()) {
      if (!kept.containsKey(path)) {
        delete(path);
      }
    }
    forgetUnseenSkips();
  }

  /** Drops the SKIPPED documents of remembered paths this run did not see skipped again. */
  private void forgetUnseenSkips() throws IOException {
    for (String path : skippedBefore.keySet()) {
      if (!skipsSeen.contains(path)) {
        sink.deleteSkip(path);
        count.skipWrites.incrementAndGet();
      }
    }
  }

  /**
   * Processes exactly the listed paths (a seam update): each is re-read and re-indexed (hashing
   * always); a path that vanished or is now skipped is deleted.
   */
  public void runPaths(List<String> upserts, List<String> deletes, int threads)
      throws IOException {
    for (String path : deletes) {
      if (before.containsKey(path)) {
        delete(path);
      }
    }
    Map<String, Boolean> kept = new ConcurrentHashMap<>();
    List<String> named = new ArrayList<>();
    for (String path : new LinkedHashSet<>(upserts)) {
      SkipReason reason = rules.skipByName(path);
      if ((reason != null && !FileRules.literalOnly(reason)) || rules.underPrunedDirectory(path)) {
        count.skip(reason == null ? SkipReason.GLOB : reason);
      } else {
        named.add(path);
      }
    }
    processAll(named, path -> path, path -> FileStat.of(root, path, maxFileBytes), true,
        threads, kept);
    for (String path : upserts) {
      if (!kept.containsKey(path) && before.containsKey(path)) {
        delete(path);
      }
    }
    forgetUnseenSkips();
  }

  /** Processes {@code files} on {@code threads} workers, noting in {@code kept} what stays. */
  private <T> void processAll(List<T> files, Function<T, String> pathOf,
      Function<T, FileStat> statOf, boolean verify, int threads, Map<String, Boolean> kept)
      throws IOException {
    FilePool.forEach(files, threads, f -> {
      String path = pathOf.apply(f);
      if (process(path, statOf.apply(f), verify)) {
        kept.put(path, Boolean.TRUE);
      }
      fileDone.accept(filesDone.incrementAndGet());
    });
    if (threads > 1 && files.size() >= PARALLEL_FLUSH_MIN_FILES) {
      FilePool.forEach(Collections.nCopies(threads, sink), threads, DocumentSink::flush);
    }
  }

  /**
   * Brings one file up to date, given its stat data (the walk's or a fresh one). Returns whether
   * the file is (still) indexed. Per-file read errors are counted as {@link
   * SkipReason#UNREADABLE}; sink errors propagate and fail the run.
   */
  private boolean process(String path, FileStat stat, boolean verify) throws IOException {
    if (stat.size() <= maxFileBytes) {
      return processBounded(path, stat, verify);
    }
    // A literal-only file of up to exactBytes: one in memory at once.
    large.acquireUninterruptibly();
    try {
      return processBounded(path, stat, verify);
    } finally {
      large.release();
    }
  }

  private boolean processBounded(String path, FileStat stat, boolean verify) throws IOException {
    FileEntry old = before.get(path);
    SkippedFile wasSkipped = old == null ? skippedBefore.get(path) : null;
    if (stat.gone()) {
      return false;
    }
    if (stat.skip() != null) {
      if (stat.error() != null) {
        LOG.warn("cannot stat {}: {}", path, stat.error());
      }
      count.skip(stat.skip());
      return false;
    }
    long mtimeNs = stat.mtimeNs();
    long recordedMs = clock.millis();
    boolean rekey = keys.rekey();
    if (old != null && !verify && !rekey && stat.provesUnchanged(old)) {
      count.unchanged.incrementAndGet();
      return true;
    }
    if (wasSkipped != null && !verify
        && wasSkipped.statProvesUnchanged(stat.size(), stat.mtimeNs())) {
      skipsSeen.add(path); // the same bytes: the same verdict, without reading them
      count.skip(wasSkipped.reason());
      return false;
    }
    Path file = FileNames.resolve(root, path);
    if (file == null) {
      count.skip(SkipReason.UNREADABLE); // a walk or a stat named it: this JVM could, until now
      return false;
    }
    byte[] bytes;
    try {
      bytes = readBounded(file);
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      LOG.warn("cannot read {}: {}", path, e.toString());
      count.skip(SkipReason.UNREADABLE);
      return false;
    }
    if (bytes == null) {
      count.skip(SkipReason.OVERSIZE);
      return false;
    }
    SkipReason secret = rules.skipByContent(path, bytes, bytes.length);
    if (secret != null) {
      // before the hash check: a file indexed before the rule existed is dropped
      return rememberSkip(path, old, wasSkipped, secret, bytes.length, mtimeNs, recordedMs);
    }
    count.hashed.incrementAndGet();
    String hash = Hashing.blake3(bytes, bytes.length);
    if (old != null && !rekey && old.hash().equals(hash)) {
      count.unchanged.incrementAndGet();
      if (!old.statMatches(bytes.length, mtimeNs)) {
        restat(old, bytes, mtimeNs, recordedMs);
      }
      return true;
    }
    if (FileReader.isBinary(bytes, bytes.length)) {
      return rememberSkip(path, old, wasSkipped, SkipReason.BINARY, bytes.length, mtimeNs,
          recordedMs);
    }
    if (wasSkipped != null) {
      skipsSeen.add(path); // its SKIPPED document goes with the update by path below
    }
    FileEntry entry = new FileEntry(path, hash, bytes.length, mtimeNs, recordedMs,
        Languages.detect(path), 0);
    write(path, old, wasSkipped != null, entry, bytes);
    return true;
  }

  /**
   * Leaves a file out by its content and records why with its stat data (a SKIPPED document),
   * replacing the file's documents when it was indexed. Returns true: the path's documents are
   * settled (the walk's final deletion must not remove the record).
   */
  private boolean rememberSkip(String path, @Nullable FileEntry old,
      @Nullable SkippedFile wasSkipped, SkipReason reason, long size, long mtimeNs,
      long recordedMs) throws IOException {
    count.skip(reason);
    skipsSeen.add(path);
    SkippedFile now = new SkippedFile(path, reason, size, mtimeNs, recordedMs);
    if (old == null && wasSkipped != null && wasSkipped.reason() == reason
        && wasSkipped.size() == size && wasSkipped.mtimeNs() == mtimeNs
        && !now.statProvesUnchanged(size, mtimeNs)) {
      return true; // the same record; rewriting it would not make it provable yet
    }
    sink.putSkipped(now, old, old == null && wasSkipped != null);
    if (old != null) {
      entryRemoved(path);
      replaced.add(path);
      count.deleted.incrementAndGet();
    }
    count.skipWrites.incrementAndGet();
    return true;
  }

  /** Same content, new stat data: refreshes the FILE document so later runs need not hash. */
  private void restat(FileEntry old, byte[] bytes, long mtimeNs, long recordedMs)
      throws IOException {
    FileEntry entry = new FileEntry(old.path(), old.hash(), bytes.length, mtimeNs, recordedMs,
        old.language(), old.chunks());
    sink.restat(entry, grams(bytes, null, old.path()), bytes);
    entryWritten(entry);
    count.restat.incrementAndGet();
  }

  /**
   * Replaces the documents of a new or changed file, given its bytes: its FILE document and its
   * chunks ({@code stat} without its chunk count yet).
   */
  private void write(String path, @Nullable FileEntry old, boolean wasSkipped, FileEntry stat,
      byte[] bytes) throws IOException {
    String text = FileReader.decode(bytes, bytes.length);
    // Lock files, minified files and files over maxFileBytes: n-grams for literal search only,
    // no chunks (no ranking).
    boolean literalOnly = bytes.length > maxFileBytes
        || FileRules.literalOnly(rules.skipByName(path)) || FileReader.looksMinified(text);
    String language = stat.language();
    List<Chunk> chunks = literalOnly ? List.of() : chunker.chunk(text, language);
    FileEntry entry = new FileEntry(path, stat.hash(), stat.size(), stat.mtimeNs(),
        stat.recordedMs(), language, chunks.size());
    sink.putFile(entry, grams(bytes, text, path), chunks, keys.of(path, chunks), old,
        wasSkipped, bytes);
    count.chunksWritten.addAndGet(chunks.size());
    entryWritten(entry);
    if (old == null) {
      count.added.incrementAndGet();
    } else {
      replaced.add(path);
      count.changed.incrementAndGet();
    }
  }

  /**
   * The n-grams of a file: natively from its bytes when they are ASCII, else from the lines of its
   * text ({@code text}, or decoded here when null).
   */
  private static GramSet grams(byte[] bytes, @Nullable String text, String path) {
    GramSet ascii = GramSet.ofAsciiFile(bytes, bytes.length, path);
    if (ascii != null) {
      return ascii;
    }
    String decoded = text != null ? text : FileReader.decode(bytes, bytes.length);
    return GramSet.ofFile(SourceLines.split(decoded), path);
  }

  private void entryWritten(FileEntry entry) {
    removed.remove(entry.path());
    written.put(entry.path(), entry);
  }

  private void entryRemoved(String path) {
    written.remove(path);
    removed.add(path);
  }

  private @Nullable byte[] readBounded(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, exactBytes + 1));
      return bytes.length > exactBytes ? null : bytes;
    }
  }

  private void delete(String path) throws IOException {
    sink.deletePath(before.get(path));
    entryRemoved(path);
    replaced.add(path);
    count.deleted.incrementAndGet();
  }
}
