package dev.prismindex.engine;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.run.CorpusView;
import dev.prismindex.engine.internal.run.WarmUp;
import dev.prismindex.engine.internal.store.IndexFiles;
import dev.prismindex.engine.spi.Store;
import dev.prismindex.index.IndexCapabilities;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexRemoveRequest;
import dev.prismindex.index.IndexStatus;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.index.RepositoryIndexBackend;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent, incremental code index for one repository: by default one Lucene index under the
 * index home (default {@code <repo>/.prism-index/}), opened from disk, never rebuilt per process;
 * or the index a store of the SPI keeps ({@link #open(HybridIndexOptions, Store)}: a search
 * cluster, say), with the same pipeline, ranking and answers.
 *
 * <p>It is both the seam's {@link RepositoryIndexBackend} ({@code indexed_literal} from the n-gram
 * postings; {@code semantic} served by HYBRID, or SEMANTIC when configured, and declared in
 * {@link #capabilities()} only when an embedding model is present and matches the index) and the
 * {@link CodeSearch} port (LEXICAL BM25, SEMANTIC k-NN over chunk embeddings, HYBRID fused by
 * reciprocal rank, LITERAL / INDEXED_LITERAL exact substrings). Without a usable model the index
 * is lexical-only: semantic and hybrid requests fail with
 * {@link SemanticSearchUnavailableException}, never a silent lexical answer.
 *
 * <p>Writes ({@link #refresh}, {@link #update}, {@link #remove}) are serialised within the process and
 * guarded by Lucene's {@code write.lock} across processes. A run commits the lexical documents first
 * (searchable at once), then embeds the chunks that have no vector yet and commits vectors
 * periodically, so queries never wait for the embeddings. Searches are concurrent and always see
 * the last commit. Thread-safe.
 *
 * <p>The kernel, and a facade: the one place an index is assembled from a store; the runs, the
 * staleness probe, the query planner, the semantic availability and the seam adapter are parts in
 * {@code dev.prismindex.engine.internal} (see {@code docs/architecture.md}).
 */
public final class HybridIndex implements RepositoryIndexBackend, CodeSearch, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HybridIndex.class);

  /**
   * The version of the code analyzer (tokenizer and n-grams) this engine writes and reads; an
   * index written with another one must be rebuilt ({@link IncompatibleIndexException}).
   */
  public static final String ANALYZER_VERSION = CodeAnalyzer.VERSION;

  private final IndexParts parts;

  private HybridIndex(IndexParts parts) {
    this.parts = parts;
  }

  /**
   * Opens the index home, creating it (with a {@code .gitignore} holding {@code *}) when missing.
   * Nothing is indexed: call {@link #refresh} to build or update. The embedding model is found
   * here (cheaply: it loads on first use), unless semantic search is off.
   *
   * @throws IncompatibleIndexException when the index was written with another format or analyzer
   *     version
   * @throws CorruptIndexException when the index files are damaged
   * @throws IOException when the home cannot be created or read
   */
  public static HybridIndex open(HybridIndexOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    return new HybridIndex(IndexParts.local(options));
  }

  /**
   * Opens the index of {@code options.root()} held by a plugged store ({@code
   * dev.prismindex.engine.spi}: a search cluster, say) instead of the local Lucene index: the same
   * walk, pipeline, ranking, verification and seam, with the store's documents and candidates. The
   * index owns the store from here on ({@link #close} closes it; so does a failed open). {@code
   * options.home()} is not used for the index; {@link #verify} asks the store's {@link
   * Store#health()}; {@link RefreshOptions#embed()} and {@link RefreshOptions#withLexicalOnly()}
   * do not apply (the store's index holds vectors when it was created with a model: {@link
   * dev.prismindex.engine.spi.WriteSpec#vectors()}).
   *
   * @throws IncompatibleIndexException when the store's index was written with another analyzer
   * @throws IOException when the repository root is missing or the store cannot be read
   */
  public static HybridIndex open(HybridIndexOptions options, Store store) throws IOException {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(store, "store");
    return new HybridIndex(IndexParts.plugged(options, store));
  }

  /**
   * Opens the index of the repository at {@code root} in its default home
   * ({@code <root>/.prism-index}), with the default options: {@code open(HybridIndexOptions
   * .builder(root).build())}.
   *
   * @throws IOException as {@link #open(HybridIndexOptions)}
   */
  public static HybridIndex open(Path root) throws IOException {
    return open(HybridIndexOptions.builder(root).build());
  }

  /**
   * Does, once per process, the set-up every process pays before its first walk of a git repository
   * and its first index open (git's configuration, which JGit finds by running git; the SHA-1
   * provider; Lucene's constants and codecs); a later call returns at once. A short-lived process
   * (the one-shot CLI) calls it on a thread of its own as it starts, so that this runs beside its
   * own start-up instead of before its first answer. Answers never depend on it: each part is what
   * the first use would compute, kept by the JDK, JGit or Lucene as it would be.
   */
  public static void warmUp() {
    WarmUp.once();
  }

  /**
   * Whether an index has been created in {@code home} (it may still have no commit, or be
   * unreadable: {@link #open} says).
   */
  public static boolean exists(Path home) {
    return IndexFiles.exists(home);
  }

  /**
   * Deletes the index files in {@code home} (not the home itself, and nothing else in it), so a
   * full rebuild can replace an index that cannot be opened (incompatible or corrupt). Never
   * follows links. Call it only while no index of {@code home} is open.
   *
   * @throws IOException when a file cannot be deleted
   */
  public static void deleteIndex(Path home) throws IOException {
    IndexFiles.delete(home);
  }

  /**
   * A number that grows with every commit of the index in {@code home} (by any process), or -1
   * when it has none: lets a long-lived process notice another process's commits cheaply.
   *
   * @throws IOException when the index directory cannot be listed
   */
  public static long commitGeneration(Path home) throws IOException {
    return IndexFiles.lastCommitGeneration(home);
  }

  /**
   * The repository-relative paths a {@link #refresh} with {@code options} walks (ignore rules, file
   * rules by name, depth and path length applied; content rules not), in walk order. Opens nothing.
   *
   * @throws IOException when the walk fails
   */
  public static List<String> walk(HybridIndexOptions options) throws IOException {
    return CorpusView.paths(options);
  }

  /**
   * The distinct chunk texts a {@link #refresh} with {@code options} would embed into an empty
   * index, in walk order, at most {@code limit} (for measuring a model on a repository's code).
   * Opens nothing.
   *
   * @throws IOException when the walk or a read fails
   */
  public static List<String> chunkTexts(HybridIndexOptions options, int limit) throws IOException {
    return CorpusView.chunkTexts(options, limit);
  }

  /** The options this index was opened with. */
  public HybridIndexOptions options() {
    return parts.ctx().options();
  }

  /**
   * Walks the repository (or the part {@link RefreshOptions#scope()} names) and brings the index up
   * to date: one commit of the lexical documents (none when nothing changed), then, when semantic
   * search is available and {@code refresh.embed()}, the embedding of every chunk text without a
   * vector, committed every
   * {@link HybridIndexOptions#embeddingCommitInterval()} and at the end; finally the embedding cache
   * is pruned when it outgrows the index (see {@code docs/engine.md}).
   *
   * <p>A verifying run ({@code refresh.verify()}) first verifies the checksums of the index's files
   * (see {@link #verify}); a full rebuild does too, and replaces a damaged index whole (its
   * embedding cache included) instead of updating it.
   *
   * @throws IndexLockedException when another process is writing the index
   * @throws CorruptIndexException when the index is damaged (a full rebuild repairs it)
   * @throws SemanticSearchUnavailableException when the model fails while embedding (the lexical
   *     commit and the vectors embedded so far are kept)
   * @throws java.io.InterruptedIOException when the thread is interrupted while embedding (same)
   * @throws IOException when the walk or the index write fails (the previous commit stays intact)
   */
  public IndexRunStats refresh(RefreshOptions refresh) throws IOException {
    Objects.requireNonNull(refresh, "refresh");
    ensureOpen();
    return parts.runs().refresh(refresh);
  }

  /**
   * Brings the index up to date incrementally ({@link RefreshOptions#INCREMENTAL}): only added,
   * changed and deleted files are processed; with a model, new chunks are embedded.
   *
   * @throws IOException as {@link #refresh(RefreshOptions)}
   */
  public IndexRunStats refresh() throws IOException {
    return refresh(RefreshOptions.INCREMENTAL);
  }

  /**
   * Estimates, from a walk and stat calls only, how many files changed since the last commit. Files
   * the index does not have are sniffed (first 8 KiB) so binary files and files holding a private
   * key are not reported as added (minified and lock files are indexed, for literal search only, so
   * they are not reported either). The walk applies the same rules as {@link #refresh}, so a file the
   * walk skips (by name, secret deny list, depth or path length) never makes the index look stale;
   * the skips are counted in {@link Staleness#skipped()}.
   *
   * @throws IOException when the walk or the index fails
   */
  public Staleness staleness() throws IOException {
    return parts.probe().probe();
  }

  /**
   * What the last commit records, and whether this process can search it semantically.
   *
   * @throws IOException when the index cannot be read
   */
  public EngineStatus engineStatus() throws IOException {
    ensureOpen();
    return parts.engineStatus();
  }


  /**
   * Verifies the last commit without taking the write lock: the checksum of every index file (a
   * sequential read of the whole index, about as long as reading it from disk); when
   * {@code thorough}, also Lucene's {@code CheckIndex} tests of every segment (postings, stored
   * fields, doc values, vectors, ...), several times slower. A search that fails on damaged
   * files runs the checksum step itself and reports {@link CorruptIndexException}; damage in
   * parts a search does not read shows only here.
   *
   * @throws CorruptIndexException when the index is damaged (rebuild it with
   *     {@link RefreshOptions#FULL})
   * @throws IOException when the index cannot be read
   */
  public void verify(boolean thorough) throws IOException {
    ensureOpen();
    parts.ctx().store().verify(thorough);
  }

  // ---------------------------------------------------------------------------------------------
  // CodeSearch

  /**
   * The best {@value SearchOpts#DEFAULT_LIMIT} hits for {@code query} in the default mode (as the
   * command line's: hybrid when this process's model can search the index's vectors, else
   * lexical; {@link #defaultMode()}), over the whole repository.
   *
   * @throws IOException as {@link #search(String, SearchOpts)}
   */
  public List<Hit> search(String query) throws IOException {
    return search(query, SearchOpts.builder().build());
  }

  /**
   * The mode a search without one runs in: {@link EngineStatus#defaultMode()} of the last commit.
   *
   * @throws IOException when the index cannot be read
   */
  public dev.prismindex.repository.SearchMode defaultMode() throws IOException {
    return engineStatus().defaultMode();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Hits come from the last commit and are checked against the working tree before they are
   * returned. LEXICAL: BM25 over code-aware tokens; scores are divided by the best one. SEMANTIC:
   * the query string alone is embedded, k-NN over the chunk vectors, each hit at its chunk's
   * symbol line (else its first non-blank line); score = cosine similarity clamped to [0, 1].
   * HYBRID: both engines to the same depth, fused by {@link SearchOpts#fusion()} (RRF, k = 10,
   * by default; a chunk missing from a ranking cut at that depth counts as ranked just below
   * the cut);
   * score = fused score / maximum attainable; a hit keeps the lexical best line when the lexical
   * engine matched it. <b>Identifier guard:</b> when the query is a single identifier and the
   * lexical engine's top hit is an exact match of it (one of its chunk's definitions has that name,
   * or its best line contains it as a whole word, case-sensitively), or the query is a name phrase
   * ({@code parse duration string}: 2 to 6 words of letters and digits) and one of that hit's
   * definitions is named by it ({@code parseDurationString}, {@code PARSE_DURATION_STRING}), that
   * hit is HYBRID's first hit too, with the best fused score of the answer (see {@code
   * docs/engine.md}). Ties are broken by
   * the lexical rank, the semantic rank, then path and line, so an index and a query always give
   * the same hits, in the same order, with the same scores.
   *
   * <p>LITERAL and INDEXED_LITERAL: exact substring matches with the literal scanner's semantics
   * (case rule of {@link SearchOpts#caseSensitive()}), every matching line in path, line order,
   * from the n-gram postings and verified against the current files; a file whose path alone
   * contains the query is reported once at line 1, column 0, score 0.5 (content matches score
   * 1.0). {@link SearchResult#notSearched()} counts the files not searched by reason. REGEX: the
   * same for a regular expression (see {@link #stream}).
   */
  @Override
  public SearchResult searchResult(String query, SearchOpts opts) throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    ensureOpen();
    return parts.planner().search(query, opts);
  }

  /**
   * An exact search (LITERAL, INDEXED_LITERAL, REGEX) whose hits are handed to {@code sink} as
   * they are found instead of collected: the candidates of the gram index are verified against the
   * working tree one file after another, in path order, and each file's hits (in line order) go to
   * the sink as soon as it is read, until {@link SearchOpts#limit()} ({@link SearchOpts#UNLIMITED}
   * for every match). The same hits, in the same order, as {@link #searchResult}; the result
   * returned holds none of them, only what the caller should know (not searched, truncated, every
   * file read). An exception the sink throws ends the search and propagates.
   *
   * <p>REGEX: the pattern (ripgrep's syntax and semantics, core's {@code RegexPattern}) is planned
   * into a query over the gram index as codesearch plans one; a pattern that needs no gram the
   * index holds reads every indexed file the filter selects ({@link
   * SearchResult#everyFileRead()}). Hits carry every match of their line ({@link Hit#matches()}).
   *
   * @throws IllegalArgumentException for a ranked mode, or a pattern that does not compile
   * @throws IOException when the index cannot be read
   */
  public SearchResult stream(String query, SearchOpts opts, Consumer<Hit> sink)
      throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    Objects.requireNonNull(sink, "sink");
    ensureOpen();
    return parts.planner().stream(query, opts, sink);
  }

  /**
   * The files the last indexing run left out of the index, by lower-case {@link SkipReason} name
   * (binary, oversize, secret, glob, not_regular, unreadable): what every exact answer counts in
   * {@link SearchResult#notSearched()} before the candidates found unreadable while searching.
   * Empty without a commit.
   *
   * @throws IOException when the index cannot be read
   */
  public Map<String, Integer> notIndexed() throws IOException {
    ensureOpen();
    return parts.planner().notIndexed();
  }

  // ---------------------------------------------------------------------------------------------
  // RepositoryIndexBackend

  /**
   * {@code indexed_literal} and {@code lexical} always; {@code semantic} and {@code hybrid} only when
   * an embedding model is present, semantic search is on, and the model matches the index's (or the
   * index has no vectors yet). Cheap: reads the commit's metadata; never loads the model.
   */
  @Override
  public IndexCapabilities capabilities() {
    return parts.seam().capabilities();
  }

  /**
   * Re-indexes exactly the listed paths (a vanished or now-skipped path is deleted) and records the
   * request's source revision, in one commit; then embeds the new chunk texts of those paths.
   */
  @Override
  public void update(IndexUpdateRequest request) throws IOException {
    parts.seam().update(request);
  }

  /** Drops the paths; commits only when something was removed. */
  @Override
  public void remove(IndexRemoveRequest request) throws IOException {
    parts.seam().remove(request);
  }

  /**
   * {@code indexed_literal}: one hit per file (its first matching line; score 1.0, or 0.5 for a
   * path-only match), files in path order, {@code truncated} when a further file matches.
   * {@code semantic}: {@link HybridIndexOptions#seamSemanticMode()} (HYBRID by default), one hit per
   * file (its best chunk), {@code truncated} when the cap was reached (a similarity search always
   * has further, weaker hits); {@link SemanticSearchUnavailableException} without a usable model.
   * {@code lexical} and {@code hybrid}: that mode, one hit per file the same way ({@link
   * #capabilities()} declares them: lexical always, hybrid with a usable model).
   */
  @Override
  public IndexQueryResult search(IndexQuery query) throws IOException {
    ensureOpen();
    return parts.seam().search(query);
  }

  /**
   * FAILED after a failed write until the next success, and once a search, a run or
   * {@link #verify} found the index damaged, until a full rebuild or a verification passes;
   * otherwise READY whenever a commit exists
   * (also while a later run is writing: searches are served from the last commit, so the seam need
   * not refuse them); BUILDING while the first run writes; EMPTY before any commit.
   * {@code updatedAt} is the later of the last lexical commit's time and the last run in this
   * process that found nothing to change (the index was verified current then).
   */
  @Override
  public IndexStatus status() throws IOException {
    ensureOpen();
    return parts.seam().status();
  }

  @Override
  public void dispose() throws IOException {
    close();
  }

  /** Closes the searcher and the directory (or the plugged store) and the parsers. Idempotent. */
  @Override
  public void close() throws IOException {
    parts.runs().close(() -> {
      parts.ctx().chunker().close();
      parts.ctx().store().close();
      LOG.debug("closed index at {}", parts.ctx().options().home());
    });
  }

  private void ensureOpen() {
    parts.ensureOpen();
  }

  /** The parts of this index (a {@link Workspace}'s member, the tests of this package). */
  IndexParts parts() {
    return parts;
  }
}
