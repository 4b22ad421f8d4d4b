package dev.prismindex.engine.internal.semantic;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.internal.Failures;
import dev.prismindex.engine.internal.chunk.Chunker;
import dev.prismindex.engine.internal.chunk.EmbedText;
import dev.prismindex.engine.internal.codec.VectorCode;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.pipeline.Hashing;
import dev.prismindex.engine.internal.query.PathPrior;
import dev.prismindex.engine.internal.store.Documents;
import dev.prismindex.engine.internal.walk.FileNames;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.FileEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * Embeds the chunk texts that have no vector yet, after the lexical documents are committed, and
 * adds one VECTOR document per text. The text embedded for a chunk is {@link EmbedText#of} (its
 * context and its text), and its hash is the chunk's vector key.
 *
 * <p>Chunk texts are not stored in the index. They come from the {@link TextSpool} the lexical phase
 * of the same run filled, when it holds every missing text of a file; otherwise (texts over the
 * spool's budget, or a run resuming an interrupted one) the file is read again, checked against its
 * manifest hash (a file edited since the lexical commit is skipped: the next refresh re-indexes
 * it), and chunked again (chunking is deterministic, so the same texts and hashes come back).
 *
 * <p>Order: the files of library source first, then the auxiliary ones (tests, examples,
 * benchmarks, generated code: {@link PathPrior#auxiliary}), each in path order, so an interrupted
 * or still running embedding covers what searches mostly want first. Texts are embedded in
 * batches of {@value #BATCH} in that order (the batches are a function of the backlog alone, not
 * of the thread count) on {@code threads} threads; the calling thread reads and chunks meanwhile.
 * (Batches of texts sorted by length were measured and not kept: the bundled model embeds one text
 * per call, so there is no padding to save; see docs/runs/README.md.)
 *
 * <p>Every {@code commitInterval}, and at the end, the run waits for the batches in flight and
 * commits (through {@link Committer}), so an interrupted run keeps its work and the next one
 * continues with what is still missing. On a failure (the model, the writer, the progress listener,
 * or an interrupt) the vectors added so far are committed before the error propagates.
 */
public final class EmbeddingRun {

  /** Texts per embedding call. */
  public static final int BATCH = 32;

  /** Commits the vectors added so far, with the given totals of this run. */
  @FunctionalInterface
  public interface Committer {
    void commit(long textsEmbedded, long chunksCovered) throws IOException;
  }

  /** Receives the number of texts embedded so far and the total to embed. */
  @FunctionalInterface
  public interface Progress {
    void embedded(long done, long total);
  }

  /** Looks up the manifest entry of a path in the last commit. */
  @FunctionalInterface
  public interface Manifest {
    @Nullable FileEntry entry(String path) throws IOException;
  }

  /**
   * What the run did.
   *
   * @param textsEmbedded distinct chunk texts embedded (= vectors added)
   * @param chunksCovered live chunks that gained a vector
   * @param filesSkipped files with missing texts that changed since the lexical commit
   */
  public record Result(long textsEmbedded, long chunksCovered, int filesSkipped) {}

  private final Path root;
  private final long maxFileBytes;
  private final IndexWriter writer;
  private final Chunker chunker;
  private final Embedder embedder;
  private final int keyBytes;
  private final VectorCode code;
  private final int threads;
  private final Duration commitInterval;
  private final Clock clock;

  private final AtomicLong embedded = new AtomicLong();
  private final AtomicLong covered = new AtomicLong();

  public EmbeddingRun(Path root, long maxFileBytes, IndexWriter writer, Chunker chunker,
      Embedder embedder, int keyBytes, VectorCode code, int threads, Duration commitInterval,
      Clock clock) {
    this.root = root;
    this.maxFileBytes = maxFileBytes;
    this.writer = writer;
    this.chunker = chunker;
    this.embedder = embedder;
    this.keyBytes = keyBytes;
    this.code = code;
    this.threads = threads;
    this.commitInterval = commitInterval;
    this.clock = clock;
  }

  private record Pending(BytesRef hash, String text, int uses) {}

  /**
   * Embeds every missing text of {@code backlog} ({@link VectorCatalog#missing}).
   *
   * @throws InterruptedIOException when the thread was interrupted (after committing the vectors
   *     added so far; the interrupt flag is set again)
   * @throws dev.prismindex.embed.EmbeddingException when the model fails (same)
   * @throws IOException when a file or the index cannot be read or written
   */
  public Result run(Map<String, Map<BytesRef, Integer>> backlog, Manifest manifest,
      Committer committer, Progress progress, @Nullable TextSpool spool) throws IOException {
    long total = 0;
    for (Map<BytesRef, Integer> texts : backlog.values()) {
      total += texts.size();
    }
    progress.embedded(0, total);
    if (total == 0) {
      return new Result(0, 0, 0);
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "prism-index-embedder");
      t.setDaemon(true);
      return t;
    });
    Feed feed = new Feed(pool, progress, total);
    Throwable failure = null;
    try {
      feed.all(backlog, manifest, committer, spool);
    } catch (InterruptedIOException e) {
      feed.interrupted = true;
    } catch (Throwable t) {
      failure = t;
    } finally {
      // Batches not started yet are dropped; running ones finish (their vectors are complete).
      if (failure != null || feed.interrupted) {
        for (Future<?> f : feed.inFlight) {
          f.cancel(false);
        }
      }
      try {
        drainQuietly(feed.inFlight, failure);
      } finally {
        pool.shutdownNow();
      }
    }
    return finish(committer, feed, failure, total);
  }

  /** The last commit, then the outcome: the failure, the interrupt, or the result. */
  private Result finish(Committer committer, Feed feed, @Nullable Throwable failure,
      long totalTexts) throws IOException {
    boolean interrupted = Thread.interrupted() || feed.interrupted;
    try {
      commit(committer);
    } catch (IOException | RuntimeException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      Failures.rethrow(failure);
    }
    if (interrupted) {
      throw new InterruptedIOException("embedding interrupted after " + embedded.get() + " of "
          + totalTexts + " chunk texts (committed; the next refresh continues)");
    }
    return new Result(embedded.get(), covered.get(), feed.skipped);
  }

  /** The reading side of a run: files to texts to batches in flight, with periodic commits. */
  private final class Feed {
    final ExecutorService pool;
    final Progress progress;
    final long totalTexts;
    final Deque<Future<?>> inFlight = new ArrayDeque<>();
    final Set<BytesRef> queued = new HashSet<>();
    List<Pending> batch = new ArrayList<>(BATCH);
    int skipped;
    boolean interrupted;

    Feed(ExecutorService pool, Progress progress, long totalTexts) {
      this.pool = pool;
      this.progress = progress;
      this.totalTexts = totalTexts;
    }

    void all(Map<String, Map<BytesRef, Integer>> backlog, Manifest manifest, Committer committer,
        @Nullable TextSpool spool) throws IOException {
      long lastCommit = System.nanoTime();
      for (Map.Entry<String, Map<BytesRef, Integer>> file : libraryFirst(backlog)) {
        if (Thread.interrupted()) {
          interrupted = true;
          break;
        }
        List<Pending> texts = spooled(file.getValue(), spool, queued);
        if (texts == null) {
          texts = texts(file.getKey(), file.getValue(), manifest, queued);
        }
        if (texts == null) {
          skipped++;
          continue;
        }
        for (Pending p : texts) {
          batch.add(p);
          if (batch.size() == BATCH) {
            submit(pool, inFlight, batch, progress, totalTexts);
            batch = new ArrayList<>(BATCH);
          }
        }
        if (System.nanoTime() - lastCommit >= commitInterval.toNanos() && !inFlight.isEmpty()) {
          drain(inFlight, 0);
          commit(committer);
          lastCommit = System.nanoTime();
        }
      }
      if (!interrupted && !batch.isEmpty()) {
        submit(pool, inFlight, batch, progress, totalTexts);
      }
      drain(inFlight, 0);
    }
  }

  /**
   * The files of {@code backlog} in embedding order: library source first, then auxiliary files
   * ({@link PathPrior#auxiliary}), each group in the backlog's order.
   */
  static List<Map.Entry<String, Map<BytesRef, Integer>>> libraryFirst(
      Map<String, Map<BytesRef, Integer>> backlog) {
    List<Map.Entry<String, Map<BytesRef, Integer>>> library = new ArrayList<>(backlog.size());
    List<Map.Entry<String, Map<BytesRef, Integer>>> auxiliary = new ArrayList<>();
    for (Map.Entry<String, Map<BytesRef, Integer>> e : backlog.entrySet()) {
      (PathPrior.auxiliary(e.getKey()) ? auxiliary : library).add(e);
    }
    library.addAll(auxiliary);
    return library;
  }

  /** Commits with the interrupt flag cleared (Lucene's file channels close on interrupts). */
  private void commit(Committer committer) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      committer.commit(embedded.get(), covered.get());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The missing texts of one file from the spool, or null unless the spool has all of them. */
  private static @Nullable List<Pending> spooled(Map<BytesRef, Integer> missing,
      @Nullable TextSpool spool, Set<BytesRef> queued) {
    if (spool == null) {
      return null;
    }
    List<Pending> out = new ArrayList<>(missing.size());
    for (Map.Entry<BytesRef, Integer> e : missing.entrySet()) {
      String text = spool.get(e.getKey());
      if (text == null) {
        return null;
      }
      out.add(new Pending(e.getKey(), text, e.getValue()));
    }
    out.removeIf(p -> !queued.add(p.hash()));
    return out;
  }

  /** The missing texts of one file, or null when the file changed since the lexical commit. */
  private @Nullable List<Pending> texts(String path, Map<BytesRef, Integer> missing,
      Manifest manifest, Set<BytesRef> queued) throws IOException {
    FileEntry entry = manifest.entry(path);
    if (entry == null) {
      return null;
    }
    Path file = FileNames.resolve(root, path);
    if (file == null) {
      return null; // a name this JVM cannot encode: it cannot read the file
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 16, maxFileBytes + 1));
    } catch (IOException e) {
      return null;
    }
    if (bytes.length > maxFileBytes || !Hashing.blake3(bytes, bytes.length).equals(entry.hash())) {
      return null;
    }
    List<Pending> out = new ArrayList<>();
    for (Chunk c : chunker.chunk(FileReader.decode(bytes, bytes.length), entry.language())) {
      String text = EmbedText.of(path, c);
      BytesRef hash = new BytesRef(Hashing.chunkKey(text, keyBytes));
      Integer uses = missing.get(hash);
      if (uses != null && queued.add(hash)) {
        out.add(new Pending(hash, text, uses));
      }
    }
    return out;
  }

  private void submit(ExecutorService pool, Deque<Future<?>> inFlight, List<Pending> batch,
      Progress progress, long total) throws IOException {
    // At most two batches per thread in flight: bounded memory, and the producer stays ahead.
    drain(inFlight, threads * 2 - 1);
    inFlight.add(pool.submit(() -> {
      List<String> texts = new ArrayList<>(batch.size());
      for (Pending p : batch) {
        texts.add(p.text());
      }
      List<float[]> vectors = embedder.embed(texts);
      if (vectors.size() != batch.size()) {
        throw new IllegalStateException("the embedder returned " + vectors.size()
            + " vectors for " + batch.size() + " texts");
      }
      long now = clock.millis();
      for (int i = 0; i < batch.size(); i++) {
        Pending p = batch.get(i);
        writer.addDocument(Documents.vector(p.hash().bytes, unit(vectors.get(i),
            embedder.dimension()), now, code));
        covered.addAndGet(p.uses());
      }
      progress.embedded(embedded.addAndGet(batch.size()), total);
      return null;
    }));
  }

  /** Waits until at most {@code keep} futures are pending; rethrows the first failure. */
  private static void drain(Deque<Future<?>> inFlight, int keep) throws IOException {
    while (inFlight.size() > keep) {
      Future<?> f = inFlight.peekFirst();
      try {
        f.get();
      } catch (InterruptedException e) {
        throw new InterruptedIOException("embedding interrupted");
      } catch (ExecutionException e) {
        inFlight.removeFirst();
        rethrowUnchecked(e.getCause());
      }
      inFlight.removeFirst();
    }
  }

  private static void drainQuietly(Deque<Future<?>> inFlight, @Nullable Throwable failure) {
    boolean interrupted = Thread.interrupted();
    while (!inFlight.isEmpty()) {
      Future<?> f = inFlight.removeFirst();
      try {
        f.get(10, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (java.util.concurrent.CancellationException e) {
        // never started
      } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
        if (failure != null && e.getCause() != failure) {
          failure.addSuppressed(e.getCause() == null ? e : e.getCause());
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The vector at unit length (the index scores by dot product); a zero vector stays zero.
   *
   * @throws IllegalStateException when the vector does not have {@code dimension} components
   */
  public static float[] unit(float[] v, int dimension) {
    if (v.length != dimension) {
      throw new IllegalStateException("the embedder returned a vector of dimension " + v.length
          + ", expected " + dimension);
    }
    double sum = 0;
    for (float f : v) {
      sum += (double) f * f;
    }
    if (sum == 0 || Math.abs(sum - 1.0) < 1e-4) {
      return v;
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] * inv;
    }
    return out;
  }

  private static void rethrowUnchecked(@Nullable Throwable t) throws IOException {
    if (t == null) {
      throw new IOException("embedding failed");
    }
    Failures.rethrow(t);
  }
}
