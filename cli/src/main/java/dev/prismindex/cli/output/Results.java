package dev.prismindex.cli.output;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchResult;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a backend ({@code dev.prismindex.cli.command.Backend}) answers and every {@link Printer}
 * renders. A search's answer is an envelope around the engine's own {@link Hit}s (no copy of their
 * fields): the query, the mode that answered, freshness, coverage, timing and what was not searched.
 */
public final class Results {
  private Results() {}

  /**
   * What happened to the index before a search answered.
   *
   * @param checked whether the staleness probe ran ({@code false} with {@code --no-refresh})
   * @param changedFiles files the probe found added, modified or deleted
   * @param refreshedFiles files re-indexed before answering (0 when nothing changed)
   * @param skippedBecauseLocked the changed files could not be re-indexed, so the last commit
   *     answered: another process was writing the index, or it is read-only
   * @param indexReadOnly the index's directory is read-only to this process (then also
   *     {@code skippedBecauseLocked})
   */
  public record Freshness(boolean checked, int changedFiles, int refreshedFiles,
      boolean skippedBecauseLocked, boolean indexReadOnly) {
    public static final Freshness NOT_CHECKED = new Freshness(false, 0, 0, false, false);
    /** Checked, and nothing had changed. */
    public static final Freshness CLEAN = new Freshness(true, 0, 0, false, false);

    public Freshness {
      if (indexReadOnly && !skippedBecauseLocked) {
        throw new IllegalArgumentException("a read-only index is one whose changes were skipped");
      }
    }
  }

  /**
   * The answer to {@code search}: the engine's own {@link SearchResult} (hits, the mode that
   * answered, coverage, what was not searched) in an envelope of what only the CLI knows.
   *
   * @param query the query as given
   * @param modeChosen whether the mode was chosen automatically (no {@code --mode})
   * @param modeReason why an automatic choice is lexical (no model, no embeddings yet), if it is
   * @param result the engine's answer
   * @param freshness what was done about changed files first (in a workspace, its repositories'
   *     figures summed)
   * @param tookMs wall time of the search itself (after opening and refreshing)
   * @param repos in a workspace, what was done about each repository's changed files, by name;
   *     empty for one repository
   * @param skipped in a workspace, the optional repositories left out because they cannot be
   *     searched: one line each, naming the repository and why
   * @param notes what a person should know about how the answer was found, one line each (an
   *     exact search without an index, a pattern the index could not narrow down, a scan stopped
   *     at a bound); printed on stderr in every output format
   */
  public record SearchAnswer(String query, boolean modeChosen, @Nullable String modeReason,
      SearchResult result, Freshness freshness, long tookMs, Map<String, Freshness> repos,
      List<String> skipped, List<String> notes) {

    public SearchAnswer {
      repos = Map.copyOf(repos);
      skipped = List.copyOf(skipped);
      notes = List.copyOf(notes);
    }

    /** The answer of one repository. */
    public SearchAnswer(String query, boolean modeChosen, @Nullable String modeReason,
        SearchResult result, Freshness freshness, long tookMs, List<String> notes) {
      this(query, modeChosen, modeReason, result, freshness, tookMs, Map.of(), List.of(), notes);
    }

    /** The answer of one repository, without notes. */
    public SearchAnswer(String query, boolean modeChosen, @Nullable String modeReason,
        SearchResult result, Freshness freshness, long tookMs) {
      this(query, modeChosen, modeReason, result, freshness, tookMs, List.of());
    }

    /** This answer with {@code other} as the engine's answer (the rest kept). */
    public SearchAnswer withResult(SearchResult other) {
      return new SearchAnswer(query, modeChosen, modeReason, other, freshness, tookMs, repos,
          skipped, notes);
    }

    /** What was done about the changed files of {@code hit}'s repository. */
    public Freshness freshness(Hit hit) {
      Freshness f = hit.repo() == null ? null : repos.get(hit.repo());
      return f == null ? freshness : f;
    }

    /** The engine's hits, best first, as every printer renders them. */
    public List<Hit> hits() {
      return result.hits();
    }

    /** The wire name of the mode that answered (never null: an automatic choice is resolved). */
    public String mode() {
      return result.mode().wireName();
    }

    /** Fraction of chunks with embeddings when the mode uses them; else null. */
    public @Nullable Double semanticCoverage() {
      return result.mode().needsSemantic() ? result.coverage().ratio() : null;
    }

    /** Whether the limit cut the answer: at least one further hit exists. */
    public boolean truncated() {
      return result.truncated();
    }

    /**
     * Literal modes: files not searched, by reason (binary, oversize, secret, ...; the printers
     * sort them); empty when every file was searched, and in the other modes.
     */
    public Map<String, Integer> notSearched() {
      return result.notSearched();
    }
  }

  /**
   * The summary of {@code index}: the engine's counters of the run.
   *
   * @param repaired the damage the run found and repaired by rebuilding the index whole, or null
   */
  public record IndexSummary(Path repo, Path indexDir, int filesSeen, int hashed, int added, int changed,
      int deleted, int unchanged, Map<String, Integer> skipped, long chunksWritten,
      long chunksEmbedded, long chunksReused, boolean committed, @Nullable String sourceRevision,
      long files, long chunks, @Nullable String model, @Nullable Double semanticCoverage,
      String semantic, @Nullable String semanticMessage, long sizeOnDiskBytes, long durationMs,
      @Nullable String repaired) {
    public IndexSummary {
      skipped = Map.copyOf(skipped);
    }

    int skippedTotal() {
      return skipped.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /**
   * Files changed since the last index run, by the cheap stat probe.
   *
   * @param skipped files the probe's walk left out, by lower-case reason (secret, private_key,
   *     too_deep, path_too_long, ...): never counted as changes
   */
  public record Changes(int added, int modified, int deleted, long probeMs,
      Map<String, Integer> skipped) {
    public Changes {
      skipped = Map.copyOf(skipped);
    }

    public int total() {
      return added + modified + deleted;
    }

    int skippedTotal() {
      return skipped.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** The states {@code status} reports; the last four make a search exit with code 3. */
  public enum State {
    /** Built and nothing changed since. */
    READY,
    /**
     * Files changed since the last run, few enough that a search re-indexes them first: still
     * served (core's {@code IndexState.STALE}, an index not served until a run completes it, is
     * this command line's {@link #OUTDATED}).
     */
    BEHIND,
    /** More files changed than the refresh policy allows: run {@code prism-index index}. */
    OUTDATED,
    /** No index yet. */
    MISSING,
    /** The index files are damaged. */
    CORRUPT,
    /** Written by another format, analyzer or model version. */
    INCOMPATIBLE;

    String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public boolean searchable() {
      return this == READY || this == BEHIND;
    }
  }

  /**
   * The answer to {@code status}. Fields other than the state, the paths and the problem are null
   * (or zero) when the index could not be read.
   *
   * @param problem what is wrong and how to fix it, for a state that is not searchable
   * @param semantic whether semantic search is available: available, disabled, no_model or
   *     model_mismatch (null when the index could not be read)
   * @param model the model of the index's vectors; {@code availableModel} the one this process has
   * @param server the resident server that answered, or null when the command ran in its own
   *     process
   * @param tiers the index's embedding tiers, each with what it covers; empty when not known
   * @param name the repository's name in a workspace, else null
   * @param repos for a workspace, the report of each repository (with its {@code name}), in the
   *     workspace's order; this report then sums their files, chunks and sizes, and its state is
   *     the first required repository's that cannot be searched, else {@code behind} when one is
   *     behind, else {@code ready}; empty for one repository
   */
  public record StatusReport(State state, Path repo, Path indexDir, @Nullable String problem, long files,
      long chunks, @Nullable Double semanticCoverage, long chunksEmbedded,
      @Nullable String semantic, @Nullable String semanticMessage, @Nullable String model,
      @Nullable String availableModel, @Nullable String sourceRevision,
      @Nullable Instant updatedAt, long sizeOnDiskBytes, @Nullable Changes changes,
      int maxRefreshFiles, @Nullable String formatVersion, @Nullable String analyzerVersion,
      @Nullable Server server, List<Tier> tiers, @Nullable String name,
      List<StatusReport> repos) {

    public StatusReport {
      tiers = List.copyOf(tiers);
      repos = List.copyOf(repos);
    }

    /**
     * The report of one repository without embedding tiers (none known: a missing, broken or
     * remote index).
     */
    public StatusReport(State state, Path repo, Path indexDir, @Nullable String problem,
        long files, long chunks, @Nullable Double semanticCoverage, long chunksEmbedded,
        @Nullable String semantic, @Nullable String semanticMessage, @Nullable String model,
        @Nullable String availableModel, @Nullable String sourceRevision,
        @Nullable Instant updatedAt, long sizeOnDiskBytes, @Nullable Changes changes,
        int maxRefreshFiles, @Nullable String formatVersion, @Nullable String analyzerVersion,
        @Nullable Server server) {
      this(state, repo, indexDir, problem, files, chunks, semanticCoverage, chunksEmbedded,
          semantic, semanticMessage, model, availableModel, sourceRevision, updatedAt,
          sizeOnDiskBytes, changes, maxRefreshFiles, formatVersion, analyzerVersion, server,
          List.of(), null, List.of());
    }

    /**
     * The report of a workspace ({@code root}, where its server keeps its files: {@code home})
     * from its repositories' reports (each named), the optional ones among them {@code optional}.
     */
    public static StatusReport workspace(Path root, Path home, List<StatusReport> repos,
        java.util.Set<String> optional, int maxRefreshFiles) {
      State state = State.READY;
      String problem = null;
      long files = 0;
      long chunks = 0;
      long size = 0;
      for (StatusReport r : repos) {
        files += r.files();
        chunks += r.chunks();
        size += r.sizeOnDiskBytes();
        if (problem == null && !r.state().searchable() && !optional.contains(r.name())) {
          state = r.state();
          problem = "repository " + r.name() + ": " + r.problem();
        } else if (problem == null && r.state() == State.BEHIND) {
          state = State.BEHIND;
        }
      }
      return new StatusReport(state, root, home, problem, files, chunks, null, 0, null, null,
          null, null, null, null, size, null, maxRefreshFiles, null, null, null, List.of(), null,
          repos);
    }

    /** This report as repository {@code repoName}'s in a workspace. */
    public StatusReport named(String repoName) {
      return new StatusReport(state, repo, indexDir, problem, files, chunks, semanticCoverage,
          chunksEmbedded, semantic, semanticMessage, model, availableModel, sourceRevision,
          updatedAt, sizeOnDiskBytes, changes, maxRefreshFiles, formatVersion, analyzerVersion,
          server, tiers, repoName, repos);
    }

    /** This report as answered by {@code server}. */
    public StatusReport withServer(@Nullable Server server) {
      return new StatusReport(state, repo, indexDir, problem, files, chunks, semanticCoverage,
          chunksEmbedded, semantic, semanticMessage, model, availableModel, sourceRevision,
          updatedAt, sizeOnDiskBytes, changes, maxRefreshFiles, formatVersion, analyzerVersion,
          server, tiers, name, repos);
    }
  }

  /**
   * One embedding tier of an index (the engine's {@code SemanticTier}): a model, the chunks its
   * vectors cover, and whether this process can search with it.
   *
   * @param kind {@code static} or {@code transformer}; null when not known
   * @param state {@code ready} (every chunk covered), {@code partial} (some chunks without a
   *     vector yet) or {@code unavailable} (this process cannot search with the model)
   */
  public record Tier(String model, @Nullable String kind, int dimension, long chunksCovered,
      long chunks, String state) {}

  /**
   * The long-lived process that answered a command: a resident server ({@code serve}) or an MCP
   * server ({@code mcp}).
   *
   * @param kind {@code serve} or {@code mcp}
   * @param idleTimeout when it stops without requests; null for never (or an MCP server, which
   *     ends with its host)
   * @param watch what its file watcher can vouch for: {@code current} (every change seen is
   *     indexed), {@code pending N files}, or {@code not watching (why)}
   */
  public record Server(String kind, long pid, Instant startedAt, @Nullable Duration idleTimeout,
      String watch) {}
}
