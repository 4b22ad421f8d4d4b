package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.IncompatibleIndexException;
import dev.prismindex.engine.IndexLockedException;
import dev.prismindex.engine.internal.StoreAccess;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.codec.WriterSettings;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import dev.prismindex.engine.spi.StoreHealth;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.MMapDirectory;
import org.jspecify.annotations.Nullable;

/**
 * The on-disk index: an {@link MMapDirectory} under {@code <home>/lucene}, a {@link SearcherManager}
 * over the last commit (never near-real-time: searches see commits only), and short-lived
 * {@link IndexWriter}s, one per run, holding Lucene's {@code write.lock} only while they run.
 */
public final class IndexStore implements StoreAccess {

  private final Path home;
  private final MMapDirectory directory;
  private final Object managerLock = new Object();
  private volatile @Nullable SearcherManager manager;
  private final Damage damage;

  private IndexStore(Path home, MMapDirectory directory) {
    this.home = home;
    this.directory = directory;
    this.damage = new Damage(home);
  }

  /**
   * Opens or creates the index home: the directory, its {@code .gitignore} ({@code *}) and the Lucene
   * sub-directory. An existing commit is opened and its versions checked.
   *
   * @throws IncompatibleIndexException when the commit has another format or analyzer version
   * @throws CorruptIndexException when the commit cannot be read, or when something other than a
   *     directory stands where the Lucene sub-directory belongs
   * @throws FileSystemException when the home exists and is not a directory (it is left alone)
   */
  public static IndexStore open(Path home) throws IOException {
    if (Files.exists(home, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(home)) {
      throw new FileSystemException(home.toString(), null, "not a directory");
    }
    Files.createDirectories(home);
    Path ignore = home.resolve(".gitignore");
    if (!Files.exists(ignore)) {
      Files.writeString(ignore, "*\n", StandardCharsets.UTF_8);
    }
    Path lucene = IndexFiles.lucene(home);
    if (Files.exists(lucene, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(lucene)) {
      throw new CorruptIndexException(home,
          new FileSystemException(lucene.toString(), null, "not a directory"));
    }
    Files.createDirectories(lucene);
    IndexStore store = new IndexStore(home, new MMapDirectory(lucene));
    try {
      store.refreshSearcher();
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  /** The index home. */
  public Path home() {
    return home;
  }

  /** Re-opens the searcher on the latest commit (call after each commit). */
  public void refreshSearcher() throws IOException {
    synchronized (managerLock) {
      try {
        SearcherManager m = manager;
        if (m == null) {
          if (!DirectoryReader.indexExists(directory)) {
            return;
          }
          DirectoryReader reader = DirectoryReader.open(directory);
          try {
            checkVersions(reader.getIndexCommit().getUserData());
          } catch (IOException e) {
            reader.close();
            throw e;
          }
          manager = new SearcherManager(reader, LiveStatsSearcher.FACTORY);
        } else {
          m.maybeRefreshBlocking();
          IndexSearcher s = m.acquire();
          try {
            checkVersions(((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData());
          } finally {
            m.release(s);
          }
        }
      } catch (org.apache.lucene.index.CorruptIndexException | IndexFormatTooOldException
          | IndexFormatTooNewException | EOFException | NoSuchFileException e) {
        throw damage.corrupt(e);
      } catch (AlreadyClosedException e) {
        throw e;
      } catch (RuntimeException e) {
        // Opening a commit reads only Lucene's own files: a failure there is damage.
        throw damage.corrupt(e);
      }
    }
  }

  /**
   * Whether a read or a verification found the index damaged (and no later verification or
   * rebuild cleared it), in this process or, as its {@link IndexFiles#DAMAGE_FILE} says, in
   * another.
   */
  public boolean damaged() {
    return damage.damaged();
  }

  /**
   * Refuses to serve a damaged index ({@link #damaged()}) until it is repaired, whether or not the
   * caller's own reads would touch the damaged files.
   *
   * @throws CorruptIndexException naming the damage found
   */
  @Override
  public void checkUndamaged() throws CorruptIndexException {
    damage.checkUndamaged();
  }

  /**
   * Clears {@link #damaged()} and its file: the damaged segments were replaced (a rebuild
   * committed), or a verification passed.
   */
  public void repaired() {
    damage.repaired();
  }

  /**
   * Verifies the last commit: the checksum of every file of every segment (a sequential read of
   * the whole index); when {@code thorough}, also Lucene's {@link CheckIndex} tests of each
   * segment (field infos, norms, postings, stored fields, term vectors, doc values, points,
   * vectors), on this searcher's readers, without taking the write lock. Clears
   * {@link #damaged()} when it passes; nothing to verify without a commit.
   *
   * @throws CorruptIndexException when a check fails
   */
  @Override
  public void verify(boolean thorough) throws IOException {
    SearcherManager m = manager;
    if (m == null) {
      return;
    }
    IndexSearcher searcher = m.acquire();
    try {
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        LeafReader reader = leaf.reader();
        reader.checkIntegrity();
        if (thorough && reader instanceof CodecReader c) {
          Damage.checkSegment(c);
        }
      }
      repaired();
    } catch (AlreadyClosedException e) {
      throw e;
    } catch (org.apache.lucene.index.CorruptIndexException | IndexFormatTooOldException
        | IndexFormatTooNewException | EOFException | NoSuchFileException | RuntimeException
        | AssertionError e) {
      throw damage.corrupt(e);
    } finally {
      m.release(searcher);
    }
  }

  /**
   * The engine's {@link CorruptIndexException} when {@code e}, thrown while reading or writing the
   * index, comes from damage, else null. Lucene's own corruption exceptions are damage. Any other
   * exception thrown by Lucene's code ({@link Damage#thrownByLucene}: its decoders throw plain
   * ones such as {@link EOFException}, "Invalid vInt detected" or
   * {@code ArrayIndexOutOfBoundsException}; not an interruption, not
   * {@link AlreadyClosedException}) is damage when the checksums of the last commit do not hold
   * (they are verified then, once); anything else (a bad argument, an interrupted run, a
   * working-tree file, a bug of ours) is left to the caller without reading the
   * index again.
   */
  public @Nullable CorruptIndexException corruption(Throwable e) {
    if (e instanceof CorruptIndexException c) {
      return c;
    }
    if (e instanceof org.apache.lucene.index.CorruptIndexException
        || e instanceof IndexFormatTooOldException || e instanceof IndexFormatTooNewException) {
      return damage.corrupt(e);
    }
    boolean suspect = !(e instanceof java.io.InterruptedIOException)
        && !(e instanceof AlreadyClosedException) && Damage.thrownByLucene(e);
    if (!suspect) {
      return null;
    }
    try {
      verify(false);
      return null;
    } catch (CorruptIndexException c) {
      c.addSuppressed(e);
      return c;
    } catch (IOException | RuntimeException other) {
      return null;
    }
  }

  private static void checkVersions(Map<String, String> data) throws IncompatibleIndexException {
    String format = data.getOrDefault(Schema.META_FORMAT, "none");
    if (!Schema.readsFormat(format, data.get(Schema.META_EMBEDDER_ID))) {
      throw new IncompatibleIndexException("format", format, Schema.FORMAT_VERSION);
    }
    String analyzer = data.getOrDefault(Schema.META_ANALYZER, "none");
    if (!CodeAnalyzer.reads(analyzer)) {
      throw new IncompatibleIndexException("analyzer", analyzer, CodeAnalyzer.VERSION);
    }
    String keyBytes = data.get(Schema.META_CHUNK_KEY_BYTES);
    if (!Schema.readsChunkKeyBytes(keyBytes)) {
      throw new IncompatibleIndexException("chunk key length", keyBytes,
          Integer.toString(Schema.CHUNK_KEY_BYTES));
    }
  }

  /** A function over a searcher of the last commit. */
  @FunctionalInterface
  public interface SearcherFunction<T> {
    T apply(IndexSearcher searcher) throws IOException;
  }

  /**
   * Runs {@code fn} on the last commit's searcher, or returns {@code empty} when there is no commit.
   *
   * @throws CorruptIndexException when the read fails because the index is damaged (see
   *     {@link #corruption})
   */
  public <T> T withSearcher(SearcherFunction<T> fn, T empty) throws IOException {
    SearcherManager m = manager;
    if (m == null) {
      return empty;
    }
    IndexSearcher searcher = m.acquire();
    try {
      return fn.apply(searcher);
    } catch (IOException | RuntimeException | AssertionError e) {
      CorruptIndexException c = corruption(e);
      if (c != null) {
        throw c;
      }
      throw e;
    } finally {
      m.release(searcher);
    }
  }

  /**
   * A searcher of the last commit held until {@link Lease#close()} (for work that spans several
   * calls, e.g. one indexing run); {@link Lease#searcher()} is null when there is no commit.
   */
  public Lease lease() throws IOException {
    SearcherManager m = manager;
    return m == null ? new Lease(null, null) : new Lease(m, m.acquire());
  }

  /** A held searcher; see {@link #lease()}. */
  public static final class Lease implements Closeable {
    private final @Nullable SearcherManager manager;
    private final @Nullable IndexSearcher searcher;

    private Lease(@Nullable SearcherManager manager, @Nullable IndexSearcher searcher) {
      this.manager = manager;
      this.searcher = searcher;
    }

    /** The searcher, or null when the index had no commit. */
    public @Nullable IndexSearcher searcher() {
      return searcher;
    }

    @Override
    public void close() throws IOException {
      if (manager != null && searcher != null) {
        manager.release(searcher);
      }
    }
  }

  /** Whether a commit exists. */
  public boolean hasCommit() {
    return manager != null;
  }

  /** The user data of the last commit (empty when there is none). */
  public Map<String, String> commitData() throws IOException {
    return withSearcher(
        s -> ((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData(), Map.of());
  }

  /** The bytes of the files of the last commit. */
  public long sizeOnDisk() throws IOException {
    return withSearcher(s -> {
      long total = 0;
      for (String name : ((DirectoryReader) s.getIndexReader()).getIndexCommit().getFileNames()) {
        try {
          total += directory.fileLength(name);
        } catch (NoSuchFileException ignored) {
          // deleted by a newer commit after our reader opened
        }
      }
      return total;
    }, 0L);
  }

  /**
   * Opens a writer on the directory, append mode. Commit on close is enabled so that closing after
   * a successful run waits for its merges and commits them; callers that must not commit (a
   * failure, a run with nothing to write) call {@link IndexWriter#rollback()} instead of closing.
   * Its settings are {@link WriterSettings#config}'s.
   *
   * @throws IndexLockedException when another writer holds {@code write.lock}, or the directory
   *     is read-only to this process
   */
  public IndexWriter openWriter(CodeAnalyzer analyzer) throws IOException {
    IndexWriterConfig config = WriterSettings.config(analyzer);
    try {
      return new IndexWriter(directory, config);
    } catch (LockObtainFailedException e) {
      throw new IndexLockedException(home, e);
    } catch (FileSystemException e) {
      // write.lock cannot be made or opened for writing: a read-only file system, no permission
      if (!(e instanceof NoSuchFileException) && !Files.isWritable(directory.getDirectory())) {
        throw IndexLockedException.readOnly(home, e);
      }
      throw e;
    } catch (org.apache.lucene.index.CorruptIndexException | IndexFormatTooOldException
        | IndexFormatTooNewException e) {
      throw damage.corrupt(e);
    }
  }

  @Override
  public <T> T read(ReaderFunction<T> fn, T empty) throws IOException {
    return withSearcher(s -> fn.apply(new LuceneReader(s)), empty);
  }

  /** The last commit's metadata, or null when there is no commit. */
  @Override
  public @Nullable CommitRecord record() throws IOException {
    return hasCommit() ? new CommitRecord(commitData()) : null;
  }

  @Override
  public Map<String, FileEntry> manifest() throws IOException {
    return loadManifest();
  }

  @Override
  public Map<String, SkippedFile> skipped() throws IOException {
    return loadSkipped(null);
  }

  /** Damaged once a read or a verification found damage; else sound. */
  @Override
  public StoreHealth health() throws IOException {
    Throwable found = damage.found();
    return found != null
        ? new StoreHealth(StoreHealth.Condition.DAMAGED, found.toString(), sizeOnDisk())
        : StoreHealth.sound(sizeOnDisk());
  }

  /** Always: a run adds the vectors an index lacks. */
  @Override
  public boolean holdsVectors(@Nullable CommitRecord record) {
    return true;
  }

  /** Loads the manifest (every FILE document) of the last commit. */
  public Map<String, FileEntry> loadManifest() throws IOException {
    return withSearcher(Manifests::read, new HashMap<>());
  }

  /**
   * The entries of the last commit at or below the paths of {@code scope} (see {@link
   * Manifests}); mutable.
   */
  public Map<String, FileEntry> loadManifest(Set<String> scope) throws IOException {
    return withSearcher(s -> Manifests.read(s, scope), new HashMap<>());
  }

  /**
   * The files the last commit remembers as left out by their content ({@link SkippedFile}), at or
   * below the paths of {@code scope} when it is non-null.
   */
  public Map<String, SkippedFile> loadSkipped(@Nullable Set<String> scope) throws IOException {
    return withSearcher(s -> Manifests.skipped(s, scope), new HashMap<>());
  }

  @Override
  public void close() throws IOException {
    synchronized (managerLock) {
      SearcherManager m = manager;
      manager = null;
      try {
        if (m != null) {
          m.close();
        }
      } finally {
        directory.close();
      }
    }
  }
}
