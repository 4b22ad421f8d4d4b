package dev.prismindex.cli.command;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.prismindex.cli.command.Flags.IndexFlags;
import dev.prismindex.cli.command.Flags.RootFlags;
import dev.prismindex.cli.command.Flags.SearchFlags;
import dev.prismindex.cli.command.Flags.StatusFlags;
import dev.prismindex.cli.command.Requests.IndexRequest;
import dev.prismindex.cli.command.Requests.Request;
import dev.prismindex.cli.output.ExactPrinter;
import dev.prismindex.cli.output.Printer;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.engine.GroupSearch;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.RefreshOptions;
import dev.prismindex.engine.SearchOpts;
import dev.prismindex.engine.SearchResult;
import dev.prismindex.engine.SemanticSearchUnavailableException;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.opensearch.ClusterUnavailableException;
import dev.prismindex.opensearch.OpenSearchOptions;
import dev.prismindex.opensearch.Organisation;
import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * The command line's organisation on a cluster ({@code --backend opensearch}): {@code search
 * --all-repos} / {@code --repos NAMES} (one ranking over the repositories, {@link GroupSearch}),
 * {@code status --all-repos} (the repositories and their records), {@code index --repo-name NAME}
 * and {@code index --repo-list FILE} (into the organisation, several at a time, a bound on bulk
 * requests in flight). What a caller may search comes from the deployment's {@link AccessFile}.
 * Made by {@link #of}, which checks the flags and the organisation's name.
 *
 * @param flags the subcommand's flags ({@link SearchFlags}, {@link StatusFlags} or {@link
 *     IndexFlags})
 * @param organisation the organisation's name
 * @param env the command line's environment (the model, the access file)
 */
public record OrganisationCommand(Object flags, String organisation, Environment env) {

  /** The environment variable naming the organisation (overridden by {@code --organisation}). */
  public static final String ORGANISATION_VARIABLE = "PRISM_INDEX_ORGANISATION";

  /**
   * The organisation command of a command line, or null when it asks nothing of an organisation.
   *
   * @throws CliFailure exit 2 for a bad organisation, both --all-repos and --repos, or such an
   *     option without {@code --backend opensearch}
   */
  public static @Nullable OrganisationCommand of(Object flags, RootFlags root, Environment env,
      boolean cluster) throws CliFailure {
    // --repos without a cluster selects repositories of a workspace (Requests, the same grammar).
    boolean asked = flags instanceof SearchFlags s
            && (s.allRepos || cluster && s.reposOption.names != null)
        || flags instanceof StatusFlags t
            && (t.allRepos || cluster && t.reposOption.names != null)
        || flags instanceof IndexFlags i && (i.repoName != null || i.repoList != null);
    if (!asked) {
      if (flags instanceof IndexFlags i && i.shards != null) {
        throw CliFailure.usage("--shards needs --repo-name or --repo-list (the shards of an"
            + " organisation's index)");
      }
      if (root.organisation != null) {
        throw CliFailure.usage("--organisation needs --all-repos, --repos, --repo-name or"
            + " --repo-list");
      }
      return null;
    }
    if (!cluster) {
      throw CliFailure.usage("--all-repos, --repo-name and --repo-list need --backend"
          + " opensearch (an organisation's repositories live in a cluster; a workspace searches"
          + " all its repositories unless --repos narrows them)");
    }
    if (flags instanceof SearchFlags s && s.allRepos && s.reposOption.names != null
        || flags instanceof StatusFlags t && t.allRepos && t.reposOption.names != null) {
      throw CliFailure.usage("give --all-repos or --repos, not both");
    }
    if (flags instanceof IndexFlags i && i.repoName != null && i.repoList != null) {
      throw CliFailure.usage("give --repo-name or --repo-list, not both");
    }
    String org = root.organisation != null ? root.organisation
        : env.variables().getOrDefault(ORGANISATION_VARIABLE, Organisation.DEFAULT);
    try {
      OpenSearchOptions.builder(java.net.URI.create("http://localhost")).organisation(org)
          .build();
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage("--organisation: " + e.getMessage());
    }
    return new OrganisationCommand(flags, org, env);
  }

  /** Runs the command against the cluster {@link ClusterBackend#select}s; returns the exit code. */
  public int run(Request request, OpenSearchOptions cluster, Printer printer,
      PrintStream out, PrintStream err) throws Exception {
    OpenSearchOptions options = cluster.toBuilder().organisation(organisation).build();
    RepositoryFilter filter =
        flags instanceof SearchFlags s ? filter(s.allRepos, s.reposOption.names)
        : flags instanceof StatusFlags t ? filter(t.allRepos, t.reposOption.names)
        : RepositoryFilter.ALL;
    if (request instanceof SearchRequest s && s.mode() == SearchMode.REGEX) {
      throw CliFailure.usage("regex search (-e, --regex, -w) of an organisation's repositories is"
          + " not supported; search them with a fixed string (-F, --mode literal), or one"
          + " repository (--repo) or a workspace of local repositories with the regex");
    }
    if (request instanceof SearchRequest s && s.exact() && s.maxPerFile() > 0) {
      throw CliFailure.usage("-m (matches per file) of an exact search applies to one repository"
          + " or a workspace of local repositories, not to an organisation's repositories");
    }
    try {
      if (flags instanceof IndexFlags i) {
        return index((IndexRequest) request, i, options, out);
      }
      RepositoryFilter allowed = AccessFile.allowed(env);
      if (allowed == null) {
        throw new CliFailure(ExitCode.INDEX, "the access file ($" + AccessFile.FILE_VARIABLE
            + ") allows this caller no repository");
      }
      try (Organisation org = Organisation.connect(options, allowed)) {
        if (flags instanceof SearchFlags) {
          return search((SearchRequest) request, filter, org, printer, err);
        }
        return status(request.json(), filter, org, out);
      }
    } catch (ClusterUnavailableException e) {
      throw new CliFailure(ExitCode.INDEX, e.getMessage(), e);
    }
  }

  private static RepositoryFilter filter(boolean all, @Nullable List<String> repos)
      throws CliFailure {
    try {
      return all || repos == null ? RepositoryFilter.ALL : RepositoryFilter.of(repos);
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage("--repos: " + e.getMessage());
    }
  }

  private int search(SearchRequest request, RepositoryFilter filter, Organisation org,
      Printer printer, PrintStream err) throws CliFailure, IOException {
    Path here = request.target().root();
    GroupSearch.Options options = new GroupSearch.Options(
        Files.isDirectory(here) ? Map.of(Organisation.nameOf(here), here) : Map.of(),
        env.model().embedder(), env.model().semantic(), HybridIndexOptions.DEFAULT_MAX_FILE_BYTES);
    try (GroupSearch search = org.search(filter, options)) {
      SortedMap<String, CommitRecord> repos = search.group().repositories();
      if (repos.isEmpty()) {
        throw new CliFailure(ExitCode.INDEX, "no repository of organisation " + organisation
            + " matches " + filter + " (see `prism-index status --all-repos --backend"
            + " opensearch`)");
      }
      SearchMode mode = request.mode();
      boolean chosen = mode == null;
      String reason = null;
      if (mode == null) {
        String model = env.model().semantic() && env.model().embedder() != null
            ? env.model().embedder().id() : null;
        boolean all = model != null
            && repos.values().stream().allMatch(r -> r.embedderId().equals(model));
        mode = all ? SearchMode.HYBRID : SearchMode.LEXICAL;
        reason = all ? null : "not every repository's index holds this model's embeddings";
      }
      SearchOpts opts = request.opts(mode);
      long started = System.nanoTime();
      SearchResult r;
      try {
        r = search.searchResult(request.query(), opts);
      } catch (SemanticSearchUnavailableException e) {
        throw new CliFailure(ExitCode.MODEL, mode.wireName() + " search: " + e.getMessage()
            + "; use --mode lexical", e);
      }
      long tookMs = (System.nanoTime() - started) / 1_000_000;
      SearchAnswer answer = new SearchAnswer(request.query(), chosen, reason, r,
          Freshness.NOT_CHECKED, tookMs);
      if (request.exact()) {
        // Grep's lines, as for one repository (repo/path:line:column:text).
        ExactPrinter exact = printer.exact(request.query());
        exact.begin(answer.mode(), answer.freshness(), Map.of(), Map.of());
        answer.hits().forEach(exact::hit);
        exact.end(answer.withResult(new SearchResult(List.of(), r.mode(), r.coverage(),
            r.notSearched(), r.truncated())));
      } else {
        printer.search(answer);
      }
      List<String> stored = new ArrayList<>();
      List<String> none = new ArrayList<>();
      search.verification().forEach((name, v) -> {
        if (v == GroupSearch.Verification.STORED) {
          stored.add(name);
        } else if (v == GroupSearch.Verification.NONE) {
          none.add(name);
        }
      });
      if (!stored.isEmpty()) {
        err.println("prism-index search: note: " + stored.size() + " of " + repos.size()
            + " repositories verified against the cluster's copy of their last indexed"
            + " revision (no working tree here)");
      }
      if (!none.isEmpty()) {
        err.println("prism-index search: note: not searched (their indexes keep no content and"
            + " there is no working tree here): " + String.join(", ", none));
      }
      return ExitCode.OK;
    }
  }

  private int status(boolean json, RepositoryFilter filter, Organisation org, PrintStream out)
      throws IOException {
    List<Organisation.RepositoryStatus> repos = org.status(filter);
    if (json) {
      ObjectMapper m = new ObjectMapper();
      try (JsonGenerator g = m.getFactory().createGenerator(out)) {
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.writeStartObject();
        g.writeStringField("organisation", organisation);
        g.writeArrayFieldStart("repositories");
        for (Organisation.RepositoryStatus s : repos) {
          g.writeStartObject();
          g.writeStringField("name", s.name());
          g.writeStringField("index", s.index());
          g.writeStringField("state", s.state());
          g.writeNumberField("files", s.files());
          g.writeNumberField("chunks", s.chunks());
          if (s.updatedAt() != null) {
            g.writeStringField("updatedAt", Instant.ofEpochMilli(s.updatedAt()).toString());
          }
          if (s.revision() != null) {
            g.writeStringField("revision", s.revision());
          }
          g.writeBooleanField("contentStored", s.contentStored());
          g.writeStringField("model", s.embedderId());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeNumberField("files", repos.stream().mapToLong(Organisation.RepositoryStatus::files)
            .sum());
        g.writeEndObject();
      }
      out.println();
    } else {
      out.println("organisation " + organisation + ": " + repos.size() + " repositories");
      for (Organisation.RepositoryStatus s : repos) {
        out.println(String.format(java.util.Locale.ROOT, "  %-32s %-8s %7d files %8d chunks"
            + "  %s%s", s.name(), s.state(), s.files(), s.chunks(),
            s.updatedAt() == null ? "never indexed" : Instant.ofEpochMilli(s.updatedAt()),
            s.contentStored() ? "" : "  (no content: needs its working tree)"));
      }
    }
    return repos.isEmpty() ? ExitCode.INDEX : ExitCode.OK;
  }

  private int index(IndexRequest request, IndexFlags flags, OpenSearchOptions options,
      PrintStream out) throws CliFailure, InterruptedException {
    List<Organisation.Source> sources = new ArrayList<>();
    try {
      if (flags.repoName != null) {
        sources.add(new Organisation.Source(flags.repoName, request.target().root()));
      } else {
        Path list = Path.of(flags.repoList);
        Path base = list.toAbsolutePath().getParent();
        for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
          String l = line.strip();
          if (l.isEmpty() || l.startsWith("#")) {
            continue;
          }
          String[] parts = l.split("\\s+", 2);
          Path dir = base.resolve(parts.length == 2 ? parts[1] : parts[0]).normalize();
          if (!Files.isDirectory(dir)) {
            throw CliFailure.usage("--repo-list: not a directory: " + dir);
          }
          sources.add(new Organisation.Source(parts.length == 2 ? parts[0]
              : Organisation.nameOf(dir), dir));
        }
      }
    } catch (IOException e) {
      throw CliFailure.usage("--repo-list: cannot read " + flags.repoList + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw CliFailure.usage(e.getMessage());
    }
    int parallel = flags.parallel == null ? 2 : flags.parallel;
    int bulk = flags.bulkInFlight == null ? 2 : flags.bulkInFlight;
    if (parallel < 1 || bulk < 1) {
      throw CliFailure.usage("--parallel and --bulk-in-flight must be at least 1");
    }
    if (flags.shards != null) {
      if (flags.shards < 1) {
        throw CliFailure.usage("--shards must be at least 1");
      }
      options = options.toBuilder().shards(flags.shards).build();
    }
    boolean semantic = request.semantic() && env.model().semantic();
    List<Organisation.Outcome> done = Organisation.index(sources, options, root -> {
      HybridIndexOptions.Builder b = HybridIndexOptions.builder(root).semantic(semantic);
      if (env.model().embedder() != null) {
        b.embedder(env.model().embedder());
      }
      return b.build();
    }, request.full() ? RefreshOptions.FULL : RefreshOptions.INCREMENTAL, parallel, bulk);
    int failed = 0;
    for (Organisation.Outcome d : done) {
      if (d.error() != null) {
        failed++;
        out.println(d.name() + ": failed: " + d.error());
      } else {
        out.println(d.name() + ": " + d.stats().added() + " added, " + d.stats().changed()
            + " changed, " + d.stats().deleted() + " deleted, " + d.stats().unchanged()
            + " unchanged, " + d.stats().chunksWritten() + " chunks written");
      }
    }
    return failed == 0 ? ExitCode.OK : ExitCode.FAILURE;
  }
}
