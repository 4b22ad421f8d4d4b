package dev.prismindex.cli.command;

import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.StatusRequest;
import dev.prismindex.cli.output.ExactPrinter;
import dev.prismindex.cli.output.Progress;
import dev.prismindex.cli.output.Results.IndexSummary;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.cli.output.Results.State;
import dev.prismindex.cli.output.Results.StatusReport;
import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.Workspace;
import dev.prismindex.index.IndexState;
import dev.prismindex.internal.Closing;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LocalBackend}'s requests for a workspace ({@link Target#workspace()}): each repository's
 * index reached as one repository's is (the same access, so a resident server keeps every one of
 * them open and watched), checked and caught up on its own (its own freshness and refresh
 * policy), then searched as one by the engine's {@link Workspace}. A repository that cannot be
 * searched (its directory or index missing, corrupt, incompatible, stale beyond the policy) fails
 * the search with exit code 3 naming it, unless the workspace file marks it {@code optional}:
 * then it is left out and the answer says so. An exact search (literal, regex) streams its hits
 * as one repository's does; every repository needs its index (there is no scan without one).
 */
public final class WorkspaceBackend {

  private static final Logger LOG = LoggerFactory.getLogger(WorkspaceBackend.class);

  private final LocalBackend core;

  private WorkspaceBackend(LocalBackend core) {
    this.core = core;
  }

  static WorkspaceBackend of(LocalBackend core) {
    return new WorkspaceBackend(core);
  }

  SearchAnswer search(SearchRequest request) throws CliFailure, IOException {
    Target workspace = request.target();
    long t0 = System.nanoTime();
    List<IndexAccess.Lease> leases = new ArrayList<>();
    try {
      List<String> skipped = new ArrayList<>();
      Map<String, IndexAccess.Lease> open = openAll(workspace, leases, skipped);
      SearchMode mode = request.mode();
      boolean chosen = mode == null;
      String reason = null;
      for (Map.Entry<String, IndexAccess.Lease> e : open.entrySet()) {
        EngineStatus s = e.getValue().index().engineStatus();
        boolean semantic = s.semantic() == SemanticState.AVAILABLE;
        if (chosen && reason == null && !(semantic && s.embedderId() != null)) {
          reason = "repository " + e.getKey() + ": " + LocalBackend.lexicalReason(s);
        } else if (!chosen && mode.needsSemantic() && !semantic) {
          throw LocalBackend.unavailable(mode, s.semantic(), "repository " + e.getKey() + ": "
              + s.semanticMessage(), null);
        }
      }
      if (chosen) {
        mode = reason == null ? SearchMode.HYBRID : SearchMode.LEXICAL;
      }
      Map<String, Freshness> freshness = catchUpAll(open, request, mode);
      Map<String, HybridIndex> indexes = indexes(open);
      long started = System.nanoTime();
      SearchResult result;
      try {
        result = Workspace.of(indexes).searchResult(request.query(), request.opts(mode));
      } catch (SemanticSearchUnavailableException e) {
        throw LocalBackend.unavailable(mode, e.state(), e.getMessage(), e);
      } catch (CorruptIndexException e) {
        throw corrupt(workspace, indexes, e);
      }
      long tookMs = (System.nanoTime() - started) / 1_000_000;
      LOG.debug("{} search of {} repositories: {} hits in {} ms (after {} ms opening and"
          + " catching up)", mode.wireName(), indexes.size(), result.hits().size(), tookMs,
          (started - t0) / 1_000_000);
      return new SearchAnswer(request.query(), chosen, reason, result, sum(freshness), tookMs,
          freshness, skipped, List.of());
    } finally {
      Closing.closeAll(leases);
    }
  }

  /**
   * An exact search ({@code mode}: literal, regex) of every repository, printed as it runs: the
   * repositories opened and caught up as {@link #search} does, then {@code out.begin} with their
   * freshness summed and the files their indexes leave out summed, then each hit as the engine's
   * {@link Workspace#stream} finds it (named after its repository).
   */
  SearchAnswer stream(SearchRequest request, SearchMode mode, ExactPrinter out)
      throws CliFailure, IOException {
    Target workspace = request.target();
    List<IndexAccess.Lease> leases = new ArrayList<>();
    try {
      List<String> skipped = new ArrayList<>();
      Map<String, IndexAccess.Lease> open = openAll(workspace, leases, skipped);
      Map<String, Freshness> freshness = catchUpAll(open, request, mode);
      Map<String, HybridIndex> indexes = indexes(open);
      Map<String, Integer> notIndexed = new TreeMap<>();
      for (HybridIndex index : indexes.values()) {
        index.notIndexed().forEach((reason, n) -> notIndexed.merge(reason, n, Integer::sum));
      }
      Freshness summed = sum(freshness);
      out.begin(mode.wireName(), summed, freshness, notIndexed);
      long started = System.nanoTime();
      SearchResult r;
      try {
        r = Workspace.of(indexes).stream(request.query(), request.opts(mode), out::hit);
      } catch (CorruptIndexException e) {
        throw corrupt(workspace, indexes, e);
      }
      return new SearchAnswer(request.query(), false, null, r, summed,
          (System.nanoTime() - started) / 1_000_000, freshness, skipped,
          ExactStream.exactNotes(r));
    } finally {
      Closing.closeAll(leases);
    }
  }

  /**
   * The open index of each repository that can be searched, by name (each lease added to {@code
   * leases}, for the caller to close); an optional one that cannot is left out, said in {@code
   * skipped}.
   *
   * @throws CliFailure exit code 3 naming a required repository that cannot be searched, or when
   *     none can
   */
  private Map<String, IndexAccess.Lease> openAll(Target workspace,
      List<IndexAccess.Lease> leases, List<String> skipped) throws CliFailure, IOException {
    Map<String, IndexAccess.Lease> open = new LinkedHashMap<>();
    for (Target.Member m : workspace.members()) {
      try {
        IndexAccess.Lease lease = open(m);
        leases.add(lease);
        open.put(m.name(), lease);
      } catch (CliFailure e) {
        if (!m.optional() || e.exitCode() != ExitCode.INDEX) {
          throw e;
        }
        skipped.add(e.getMessage() + " (optional: left out)");
      }
    }
    if (open.isEmpty()) {
      throw new CliFailure(ExitCode.INDEX, "no repository of the workspace can be searched: "
          + String.join("; ", skipped));
    }
    return open;
  }

  /** Each repository's index checked and caught up on its own, for a search in {@code mode}. */
  private Map<String, Freshness> catchUpAll(Map<String, IndexAccess.Lease> open,
      SearchRequest request, SearchMode mode) throws CliFailure, IOException {
    Map<String, Freshness> freshness = new LinkedHashMap<>();
    for (Map.Entry<String, IndexAccess.Lease> e : open.entrySet()) {
      try {
        freshness.put(e.getKey(), request.refresh()
            ? core.catchUp(e.getValue(), request, mode) : Freshness.NOT_CHECKED);
      } catch (CliFailure f) {
        throw named(e.getKey(), f);
      }
    }
    return freshness;
  }

  private static Map<String, HybridIndex> indexes(Map<String, IndexAccess.Lease> open) {
    Map<String, HybridIndex> indexes = new LinkedHashMap<>();
    open.forEach((name, lease) -> indexes.put(name, lease.index()));
    return indexes;
  }

  /** Exit code 3 naming the repository whose index the engine found damaged. */
  private static CorruptIndexException corrupt(Target workspace, Map<String, HybridIndex> indexes,
      CorruptIndexException e) throws CliFailure, IOException {
    for (Target.Member m : workspace.members()) {
      HybridIndex index = indexes.get(m.name());
      if (index != null && index.status().state() == IndexState.FAILED) {
        throw named(m.name(), LocalBackend.corrupt(m.target(), e));
      }
    }
    return e;
  }

  /**
   * The open index of a repository of the workspace.
   *
   * @throws CliFailure exit code 3 naming the repository when its directory or index is missing,
   *     corrupt or incompatible
   */
  private IndexAccess.Lease open(Target.Member m) throws CliFailure, IOException {
    if (!Files.isDirectory(m.target().root())) {
      throw new CliFailure(ExitCode.INDEX, "repository " + m.name() + ": no such directory "
          + m.target().root());
    }
    try {
      return core.openExisting(m.target());
    } catch (CliFailure e) {
      throw named(m.name(), e);
    }
  }

  /** {@code f} with its message naming the repository. */
  private static CliFailure named(String name, CliFailure f) {
    return new CliFailure(f.exitCode(), "repository " + name + ": " + f.getMessage(), f);
  }

  /** The repositories' freshness as one: counts summed, a locked or read-only one said. */
  private static Freshness sum(Map<String, Freshness> each) {
    boolean checked = true;
    int changed = 0;
    int refreshed = 0;
    boolean locked = false;
    boolean readOnly = false;
    for (Freshness f : each.values()) {
      checked &= f.checked();
      changed += f.changedFiles();
      refreshed += f.refreshedFiles();
      locked |= f.skippedBecauseLocked();
      readOnly |= f.indexReadOnly();
    }
    return new Freshness(checked, changed, refreshed, locked, readOnly);
  }

  /** What {@link #indexEach} reports, repository by repository. */
  public interface IndexSink {
    /** {@code m} was indexed: its summary. */
    void indexed(Target.Member m, IndexSummary summary) throws IOException;

    /** {@code m} is optional and its directory is missing: left out, {@code note} says so. */
    void skipped(Target.Member m, String note);
  }

  /**
   * {@code index} of a workspace: each repository in turn, through {@code backend} (as one
   * repository's, with a new {@code progress} each), each summary reported as it ends.
   *
   * @throws CliFailure exit code 3 for a repository whose directory is missing (an optional one
   *     is skipped), or the failure of a repository's run, naming it
   */
  public static void indexEach(Backend backend, IndexRequest request,
      Supplier<Progress> progress, IndexSink sink) throws CliFailure, IOException {
    for (Target.Member m : request.target().members()) {
      if (!Files.isDirectory(m.target().root())) {
        String message = "repository " + m.name() + ": no such directory " + m.target().root();
        if (!m.optional()) {
          throw new CliFailure(ExitCode.INDEX, message);
        }
        sink.skipped(m, message + " (optional: left out)");
        continue;
      }
      IndexSummary summary;
      try (Progress p = progress.get()) {
        summary = backend.index(new IndexRequest(m.target(), request.json(), request.full(),
            request.verify(), request.semantic()), p);
      } catch (CliFailure e) {
        throw named(m.name(), e);
      }
      sink.indexed(m, summary);
    }
  }

  /**
   * The status of every repository (each by {@link LocalBackend#status}, named), and the
   * workspace's as a whole: a required repository that cannot be searched makes the workspace's
   * state its own (exit code 3).
   */
  StatusReport status(StatusRequest request) throws IOException {
    Target workspace = request.target();
    List<StatusReport> reports = new ArrayList<>();
    Set<String> optional = new HashSet<>();
    for (Target.Member m : workspace.members()) {
      if (m.optional()) {
        optional.add(m.name());
      }
      StatusReport r;
      if (!Files.isDirectory(m.target().root())) {
        r = new StatusReport(State.MISSING, m.target().root(), m.target().home(),
            "no such directory " + m.target().root(), 0, 0, null, 0, null, null, null, null,
            null, null, 0, null, request.maxRefreshFiles(), null, null, null);
      } else {
        r = core.status(new StatusRequest(m.target(), request.json(), request.maxRefreshFiles(),
            request.verify()));
      }
      reports.add(r.named(m.name()));
    }
    return StatusReport.workspace(workspace.root(), workspace.home(), reports, optional,
        request.maxRefreshFiles());
  }
}
