package dev.prismindex.engine.internal.query;

import dev.prismindex.embed.Embedder;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.SemanticCoverage;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.SemanticState;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.search.LexicalSearcher;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.internal.store.IndexStore;
import dev.prismindex.engine.internal.store.LuceneReader;
import dev.prismindex.engine.internal.store.MergedStatistics;
import dev.prismindex.internal.Closing;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.jspecify.annotations.Nullable;

/**
 * One search over the indexes of a workspace (several local repositories), run as one: the
 * ranked modes hold the last commit of every index at once, score BM25 with their merged
 * statistics ({@link MergedStatistics}) and rank every candidate with the one {@link
 * RankedSearch} through a {@link WorkspaceReader}; the exact modes (literal, regex) are the
 * union of each repository's answer, repository by repository in the workspace's order (then path
 * and line), streamed, the limit applying to the union.
 */
public final class WorkspaceSearch {

  /**
   * One repository of the workspace: its name and its open index's parts.
   *
   * @param planner the index's own planner (its literal answers)
   */
  public record Member(String name, EngineContext ctx, IndexStore store, QueryPlanner planner) {}

  private final List<Member> members;
  private final boolean repositoryPrior;

  /**
   * A search over {@code members}, in that order (ties and literal answers follow it).
   *
   * @param repositoryPrior whether the ranked modes weigh each repository by how typical the
   *     query's words are of it ({@link RepositoryPrior}); false: every repository weighs 1
   */
  public WorkspaceSearch(List<Member> members, boolean repositoryPrior) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a workspace has at least one repository");
    }
    this.members = List.copyOf(members);
    this.repositoryPrior = repositoryPrior;
  }

  /** See {@code Workspace.searchResult}. */
  public SearchResult search(String query, SearchOpts opts) throws IOException {
    if (!SearchOpts.exact(opts.mode())) {
      return ranked(query, opts);
    }
    List<Hit> hits = new ArrayList<>();
    SearchResult r = stream(query, opts, hits::add);
    return new SearchResult(hits, r.mode(), r.coverage(), r.notSearched(), r.truncated(),
        r.everyFileRead());
  }

  private SearchResult ranked(String query, SearchOpts opts) throws IOException {
    SearchMode mode = opts.mode();
    List<IndexStore.Lease> leases = new ArrayList<>();
    try {
      List<Member> held = new ArrayList<>();
      List<IndexSearcher> searchers = new ArrayList<>();
      for (Member m : members) {
        m.store().checkUndamaged();
        IndexStore.Lease lease = m.store().lease();
        leases.add(lease);
        if (lease.searcher() != null) {
          held.add(m);
          searchers.add(lease.searcher());
        }
      }
      List<IndexReader> readers = searchers.stream().map(IndexSearcher::getIndexReader).toList();
      MergedStatistics statistics = new MergedStatistics(readers);
      List<WorkspaceReader.Part> parts = new ArrayList<>();
      List<Map<String, String>> records = new ArrayList<>();
      long chunks = 0;
      long embedded = 0;
      double[] weights = RepositoryPrior.weights(readers, repositoryPrior
          ? new LexicalSearcher(members.get(0).ctx().analyzer()).terms(query) : Set.of());
      for (int i = 0; i < held.size(); i++) {
        Member m = held.get(i);
        LuceneReader reader = new LuceneReader(statistics.searcher(readers.get(i)));
        Map<String, String> data = reader.commit().values();
        records.add(data);
        SemanticCoverage c = CommitMeta.coverage(data);
        chunks += c.chunks();
        embedded += c.chunksEmbedded();
        parts.add(new WorkspaceReader.Part(m.name(), m.ctx().options().root(),
            m.ctx().options().exactMaxFileBytes(), reader, m.store()::corruption, weights[i]));
      }
      float[] unit = null;
      if (mode.needsSemantic()) {
        Embedder model = model(held.isEmpty() ? members : held,
            held.isEmpty() ? null : records);
        unit = QueryPlanner.embedQuery(model, query);
      }
      if (held.isEmpty()) {
        return new SearchResult(List.of(), mode, new SemanticCoverage(0, 0));
      }
      WorkspaceReader workspace = new WorkspaceReader(parts);
      RankedSearch ranked = new RankedSearch(members.get(0).ctx().analyzer());
      RankedSearch.Ranking r = ranked.hits(workspace, workspace, query, unit, opts);
      return new SearchResult(r.hits(), mode, new SemanticCoverage(chunks, embedded), Map.of(),
          r.truncated());
    } finally {
      Closing.closeAll(leases);
    }
  }

  /**
   * The one model of a semantic search over {@code members}: each must be able to search its
   * index semantically ({@code records}: their commits' data, null when none has an index yet),
   * and all with the same model, or cosines would not compare.
   *
   * @throws SemanticSearchUnavailableException naming the repository that cannot
   */
  private static Embedder model(List<Member> members, @Nullable List<Map<String, String>> records)
      throws SemanticSearchUnavailableException {
    Embedder first = null;
    String firstName = null;
    for (int i = 0; i < members.size(); i++) {
      Member m = members.get(i);
      Embedder e;
      try {
        e = m.ctx().semantic().require(records == null ? Map.of() : records.get(i));
      } catch (SemanticSearchUnavailableException x) {
        throw new SemanticSearchUnavailableException(x.state(), "repository " + m.name() + ": "
            + x.getMessage(), x);
      }
      if (first == null) {
        first = e;
        firstName = m.name();
      } else if (!first.id().equals(e.id()) || first.dimension() != e.dimension()) {
        throw new SemanticSearchUnavailableException(SemanticState.MODEL_MISMATCH,
            SemanticSearchUnavailableException.PREFIX + "repositories " + firstName + " and "
                + m.name() + " embed with different models (" + first.id() + ", " + e.id()
                + "): their similarities do not compare", null);
      }
    }
    if (first == null) {
      throw new IllegalStateException("no repository");
    }
    return first;
  }

  /**
   * See {@code Workspace.stream}: each repository's exact answer ({@link QueryPlanner#stream}) in
   * the workspace's order, its hits named after it and handed to {@code sink} as they come, until
   * the limit: each repository is asked for what the limit leaves, and once it is reached, the
   * next ones for one match (not handed over), to know whether the answer was cut. Files not
   * searched are summed over the repositories searched.
   */
  public SearchResult stream(String query, SearchOpts opts, Consumer<Hit> sink)
      throws IOException {
    if (!SearchOpts.exact(opts.mode())) {
      throw new IllegalArgumentException("only the exact modes stream: "
          + (opts.mode() == null ? "automatic (hybrid or lexical)" : opts.mode().wireName()));
    }
    int[] handed = {0};
    Map<String, Integer> notSearched = new TreeMap<>();
    long chunks = 0;
    long embedded = 0;
    boolean truncated = false;
    boolean everyFileRead = false;
    for (Member m : members) {
      int left = opts.limit() - handed[0];
      if (left == 0) {
        int[] found = {0};
        SearchResult r = m.planner().stream(query, withLimit(opts, 1), h -> found[0]++);
        if (found[0] > 0 || r.truncated()) {
          truncated = true;
          break;
        }
        continue;
      }
      SearchResult r = m.planner().stream(query, withLimit(opts, left), h -> {
        handed[0]++;
        sink.accept(h.withRepo(m.name()));
      });
      chunks += r.coverage().chunks();
      embedded += r.coverage().chunksEmbedded();
      everyFileRead |= r.everyFileRead();
      r.notSearched().forEach((reason, n) -> notSearched.merge(reason, n, Integer::sum));
      if (r.truncated()) {
        truncated = true;
        break;
      }
    }
    return new SearchResult(List.of(), opts.mode(), new SemanticCoverage(chunks, embedded),
        notSearched, truncated, everyFileRead);
  }

  private static SearchOpts withLimit(SearchOpts o, int limit) {
    return new SearchOpts(limit, o.mode(), o.files(), o.fusion(), o.caseSensitive(),
        o.auxiliaryWeight(), o.contextBefore(), o.contextAfter(), o.wholeWords(), o.maxPerFile());
  }
}
