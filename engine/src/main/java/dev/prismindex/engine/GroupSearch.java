package dev.prismindex.engine;

import dev.prismindex.embed.Embedder;
import dev.prismindex.embed.EmbedderProvider;
import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.pipeline.FileStat;
import dev.prismindex.engine.internal.query.LiteralHits;
import dev.prismindex.engine.internal.query.QueryPlanner;
import dev.prismindex.engine.internal.query.RankedSearch;
import dev.prismindex.engine.internal.search.FileMatcher;
import dev.prismindex.engine.internal.search.ContentReader;
import dev.prismindex.engine.internal.search.FileSource;
import dev.prismindex.engine.internal.search.FileView;
import dev.prismindex.engine.internal.search.LiteralResult;
import dev.prismindex.engine.internal.search.LiteralSearcher;
import dev.prismindex.engine.internal.semantic.SemanticAvailability;
import dev.prismindex.engine.internal.store.CommitMeta;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.RepositoryGroup;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.LiteralPattern;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One search over several repositories' indexes, ranked as one: the kernel's ranking ({@link
 * HybridIndex#searchResult}'s: path prior, fusion, identifier guard, hit location) over the
 * candidates of a {@link RepositoryGroup} (an organisation's repository indexes in a cluster, one
 * request per signal with statistics over all of them), every hit carrying its {@link Hit#repo()}.
 *
 * <p><b>What a hit is verified against.</b> Each repository's hits are located (ranked modes) and
 * verified (literal modes) in its working tree when {@link Options#trees()} names one, as a search
 * of that repository alone does (the answer is true of the tree now); else in the copy of each
 * file the store keeps from the last commit ({@link StoreReader#content}; the answer is true of
 * the indexed revision, {@link #verification()} says so); a repository with neither is not
 * searched (its store cannot prove a hit) and is reported as {@link Verification#NONE}.
 *
 * <p>Literal answers are in repository, path, line order; {@link SearchResult#notSearched()} sums
 * the repositories' counts. Searches are concurrent; thread-safe.
 */
public final class GroupSearch implements CodeSearch, AutoCloseable {

  /** What a repository's hits are verified against. */
  public enum Verification {
    /** Its working tree on this machine: the answer is true of the files now. */
    TREE,
    /** The store's copy of each file from the last commit: true of the indexed revision. */
    STORED,
    /** Neither: the repository is not searched. */
    NONE
  }

  /**
   * What a group search needs besides the store.
   *
   * @param trees the working trees this machine has, by repository name (others are verified
   *     against the store's copies)
   * @param embedder the model of semantic and hybrid searches (every repository's index must pin
   *     it); null for the default model ({@code EmbedderProvider.findDefault()}) when {@code
   *     semantic}
   * @param semantic whether semantic and hybrid searches are on
   * @param maxFileBytes the indexes' ranking cap (as {@link HybridIndexOptions#maxFileBytes()}):
   *     exact modes verify and locate files up to the larger of it and 8 MiB, as the indexer keeps
   *     them
   */
  public record Options(Map<String, Path> trees, @Nullable Embedder embedder, boolean semantic,
      long maxFileBytes) {
    public Options {
      trees = Map.copyOf(trees);
      if (maxFileBytes < 1) {
        throw new IllegalArgumentException("maxFileBytes must be positive: " + maxFileBytes);
      }
    }

    /** No working tree, the default model, the default file cap. */
    public static Options defaults() {
      return new Options(Map.of(), null, true, HybridIndexOptions.DEFAULT_MAX_FILE_BYTES);
    }

    /** These options with {@code value} as the working trees. */
    public Options withTrees(Map<String, Path> value) {
      return new Options(value, embedder, semantic, maxFileBytes);
    }

    /** These options with {@code value} as the model (semantic on). */
    public Options withEmbedder(@Nullable Embedder value) {
      return new Options(trees, value, true, maxFileBytes);
    }

    /** These options with semantic search switched {@code on} or off. */
    public Options withSemantic(boolean on) {
      return new Options(trees, embedder, on, maxFileBytes);
    }
  }

  private final RepositoryGroup group;
  private final Options options;
  private final CodeAnalyzer analyzer = new CodeAnalyzer();
  private final SemanticAvailability semantic;

  private GroupSearch(RepositoryGroup group, Options options, SemanticAvailability semantic) {
    this.group = group;
    this.options = options;
    this.semantic = semantic;
  }

  /**
   * A search over {@code group}, which it owns from here on ({@link #close} closes it).
   */
  public static GroupSearch open(RepositoryGroup group, Options options) {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(options, "options");
    Embedder embedder = null;
    if (options.semantic()) {
      embedder = options.embedder() != null ? options.embedder()
          : EmbedderProvider.findDefault().map(EmbedderProvider::create).orElse(null);
    }
    return new GroupSearch(group, options, new SemanticAvailability(options.semantic(), embedder));
  }

  /** The group searched. */
  public RepositoryGroup group() {
    return group;
  }

  /**
   * What each repository of the group is verified against: {@link Verification#TREE} when {@link
   * Options#trees()} names an existing directory for it, else {@link Verification#STORED} when its
   * index keeps the files' content ({@link CommitRecord#CONTENT}), else {@link
   * Verification#NONE}.
   *
   * @throws IOException when the store cannot be read
   */
  public SortedMap<String, Verification> verification() throws IOException {
    return verification(group.repositories());
  }

  private SortedMap<String, Verification> verification(Map<String, CommitRecord> records) {
    SortedMap<String, Verification> out = new TreeMap<>();
    records.forEach((name, record) -> {
      Path tree = options.trees().get(name);
      out.put(name, tree != null && Files.isDirectory(tree) ? Verification.TREE
          : "stored".equals(record.get(CommitRecord.CONTENT)) ? Verification.STORED
              : Verification.NONE);
    });
    return out;
  }

  /**
   * As {@link HybridIndex#searchResult} over every repository of the group at once; each hit
   * carries its {@link Hit#repo()}. Semantic and hybrid searches need every repository's index to
   * pin this process's model ({@link SemanticSearchUnavailableException} names the first that
   * does not); a repository without a tree or a stored copy yields no hit.
   *
   * @throws IllegalArgumentException for REGEX, or a {@link SearchOpts#maxPerFile()} cap: a group
   *     answers the literal and ranked modes only
   */
  @Override
  public SearchResult searchResult(String query, SearchOpts opts) throws IOException {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(opts, "opts");
    SearchMode mode = opts.mode();
    if (mode == SearchMode.REGEX || opts.maxPerFile() > 0) {
      throw new IllegalArgumentException("a group of repositories answers the literal and ranked"
          + " modes, without a cap per file: " + mode.wireName()
          + (opts.maxPerFile() > 0 ? ", maxPerFile " + opts.maxPerFile() : ""));
    }
    boolean literalMode = SearchOpts.literal(mode);
    LiteralPattern pattern = literalMode ? LiteralSearcher.compile(query, opts.caseSensitive())
        : null;
    SortedMap<String, CommitRecord> records = group.repositories();
    SortedMap<String, Verification> verified = verification(records);
    long chunks = 0;
    long embedded = 0;
    for (CommitRecord r : records.values()) {
      SemanticCoverage c = CommitMeta.coverage(r.values());
      chunks += c.chunks();
      embedded += c.chunksEmbedded();
    }
    SemanticCoverage coverage = new SemanticCoverage(chunks, embedded);
    float[] unit = null;
    if (mode.needsSemantic()) {
      Embedder model = null;
      for (Map.Entry<String, CommitRecord> e : records.entrySet()) {
        if (semantic.check(e.getValue().values()).available() && e.getValue().embedderId()
            .isEmpty() && e.getValue().committed()) {
          throw new SemanticSearchUnavailableException(SemanticState.MODEL_MISMATCH,
              SemanticSearchUnavailableException.PREFIX + "repository " + e.getKey()
                  + "'s index holds no vectors; search it lexically or leave it out", null);
        }
        try {
          model = semantic.require(e.getValue().values());
        } catch (SemanticSearchUnavailableException x) {
          throw new SemanticSearchUnavailableException(x.state(),
              SemanticSearchUnavailableException.PREFIX + "repository " + e.getKey() + ": "
                  + x.getMessage().substring(SemanticSearchUnavailableException.PREFIX.length()),
              x);
        }
      }
      if (model == null) {
        model = semantic.require(Map.of());
      }
      unit = QueryPlanner.embedQuery(model, query);
    }
    try (StoreReader reader = group.reader()) {
      if (literalMode) {
        Map<String, ContentReader> sources = new HashMap<>();
        verified.forEach((name, v) -> {
          if (v == Verification.TREE) {
            sources.put(name, ContentReader.tree(options.trees().get(name),
                FileStat.exactCap(options.maxFileBytes())));
          } else if (v == Verification.STORED) {
            sources.put(name,
                ContentReader.stored(reader, name, FileStat.exactCap(options.maxFileBytes())));
          }
        });
        return literal(reader, records, sources, pattern, query, opts, coverage);
      }
      RankedSearch.Ranking ranking = new RankedSearch(analyzer)
          .hits(reader, files(reader, verified), query, unit, opts);
      return new SearchResult(ranking.hits(), mode, coverage, Map.of(), ranking.truncated());
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * Each chunk's file in its own repository: the working tree's, or the store's copy, checked
   * against the repository's manifest entry; a repository with neither has no file.
   */
  private FileSource files(StoreReader reader, Map<String, Verification> verified) {
    Map<String, FileView> views = new HashMap<>();
    return new FileSource() {
      @Override
      public FileView view(int chunk, String path) throws IOException {
        String repo = repo(chunk);
        String key = repo + '\0' + path;
        FileView view = views.get(key);
        if (view == null) {
          Verification v = repo == null ? Verification.NONE
              : verified.getOrDefault(repo, Verification.NONE);
          view = switch (v) {
            case TREE -> FileView.load(options.trees().get(repo), path, reader.file(repo, path),
                FileStat.exactCap(options.maxFileBytes()));
            case STORED -> ContentReader.storedView(reader.content(repo, path),
                reader.file(repo, path), FileStat.exactCap(options.maxFileBytes()));
            case NONE -> new FileView(FileView.State.GONE, null);
          };
          views.put(key, view);
        }
        return view;
      }

      @Override
      public @Nullable String repo(int chunk) {
        try {
          return reader.chunk(chunk).repository();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
  }

  /**
   * Each repository's candidates, listed and verified repository by repository in name order
   * against its source, until the limit.
   */
  private SearchResult literal(StoreReader reader, SortedMap<String, CommitRecord> records,
      Map<String, ContentReader> sources, @Nullable LiteralPattern pattern, String query,
      SearchOpts opts, SemanticCoverage coverage) throws IOException {
    Map<String, Integer> notSearched = new TreeMap<>();
    for (CommitRecord r : records.values()) {
      CommitMeta.parseSkipped(r.get(CommitRecord.SKIPPED))
          .forEach((k, v) -> notSearched.merge(k, v, Integer::sum));
    }
    List<Hit> hits = new ArrayList<>();
    boolean truncated = false;
    if (pattern != null) {
      FileMatcher files = FileMatcher.of(opts.files());
      for (Map.Entry<String, List<String>> e : reader.filesRepositoryByRepository(
          LiteralSearcher.plan(query, pattern.caseSensitive()), files.scopes())) {
        ContentReader source = sources.get(e.getKey());
        if (source == null || !records.containsKey(e.getKey())) {
          continue;
        }
        List<String> candidates = new ArrayList<>();
        for (String path : e.getValue()) {
          if (files.test(path)) {
            candidates.add(path);
          }
        }
        if (candidates.isEmpty()) {
          continue;
        }
        reader.prefetchContent(e.getKey(), candidates);
        LiteralResult found = new LiteralSearcher(source).verify(candidates, pattern,
            opts.limit() - hits.size(), false, opts.contextBefore(), opts.contextAfter(),
            AbortSignal.create());
        found.notSearched().forEach((k, v) -> notSearched.merge(k, v, Integer::sum));
        for (Hit h : LiteralHits.hits(found, query, opts.mode(), LiteralHits.Snippet.CENTRED,
            opts.wantsContext())) {
          hits.add(new Hit(h.path(), h.line(), h.endLine(), h.column(), h.snippet(), h.score(),
              h.mode(), h.language(), h.symbol(), h.lexical(), h.semantic(),
              new EngineScore(hits.size() + 1, h.score()), h.context(), h.matches(),
              e.getKey()));
        }
        if (found.truncated()) {
          truncated = true;
          break;
        }
      }
    }
    return new SearchResult(hits, opts.mode(), coverage, Collections.unmodifiableMap(notSearched),
        truncated);
  }

  /** Closes the group (its store's connections). */
  @Override
  public void close() throws IOException {
    group.close();
  }
}
