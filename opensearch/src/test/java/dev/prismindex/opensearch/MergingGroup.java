package dev.prismindex.opensearch;

import dev.prismindex.engine.RepositoryFilter;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.RepositoryGroup;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.engine.spi.VectorQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The reference "one repository at a time, then merge" of the organisation tests: a group whose
 * reader asks each repository on its own (one request per repository and signal, the
 * organisation's filter naming that repository alone) and merges the candidates by score, as the
 * kernel would merge the readers of a workspace. Its answers must be the one-request group's.
 */
final class MergingGroup implements RepositoryGroup {

  private final Organisation org;

  MergingGroup(Organisation org) {
    this.org = org;
  }

  @Override
  public String describe() {
    return "each repository alone, merged";
  }

  @Override
  public SortedMap<String, CommitRecord> repositories() throws IOException {
    return org.group(RepositoryFilter.ALL).repositories();
  }

  @Override
  public StoreReader reader() throws IOException {
    Map<String, StoreReader> readers = new LinkedHashMap<>();
    for (String name : repositories().keySet()) {
      readers.put(name, org.group(RepositoryFilter.of(List.of(name))).reader());
    }
    return new Reader(readers);
  }

  @Override
  public void close() {}

  private static final class Reader implements StoreReader {
    private final Map<String, StoreReader> readers;
    private final List<String> repos = new ArrayList<>();
    private final List<Integer> locals = new ArrayList<>();
    private final Map<String, Integer> ids = new java.util.HashMap<>();

    Reader(Map<String, StoreReader> readers) {
      this.readers = readers;
    }

    private record Found(String repo, Candidate c, ChunkDoc doc) {}

    private interface Signal {
      List<Candidate> of(StoreReader r) throws IOException;
    }

    private List<Candidate> merge(Signal signal, int depth) throws IOException {
      List<Found> all = new ArrayList<>();
      for (Map.Entry<String, StoreReader> e : readers.entrySet()) {
        for (Candidate c : signal.of(e.getValue())) {
          all.add(new Found(e.getKey(), c, e.getValue().chunk(c.chunk())));
        }
      }
      all.sort(Comparator.comparingDouble((Found f) -> f.c().score()).reversed()
          .thenComparing(f -> f.doc().path()).thenComparingInt(f -> f.doc().ordinal())
          .thenComparing(Found::repo));
      List<Candidate> out = new ArrayList<>();
      for (Found f : all.subList(0, Math.min(depth, all.size()))) {
        // One id per chunk across signals, so that fusion joins a chunk both signals found.
        int id = ids.computeIfAbsent(f.repo() + '\0' + f.c().chunk(), k -> {
          repos.add(f.repo());
          locals.add(f.c().chunk());
          return repos.size() - 1;
        });
        out.add(new Candidate(id, out.size() + 1, f.c().score(), f.c().parts()));
      }
      return out;
    }

    @Override
    public CommitRecord commit() {
      return CommitRecord.EMPTY;
    }

    @Override
    public List<Candidate> lexical(LexicalQuery query) throws IOException {
      return merge(r -> r.lexical(query), query.depth());
    }

    @Override
    public List<Candidate> nearest(VectorQuery query) throws IOException {
      return merge(r -> r.nearest(query), query.depth());
    }

    @Override
    public List<String> files(GramQuery grams, List<String> scopes) throws IOException {
      TreeSet<String> out = new TreeSet<>();
      filesByRepository(grams, scopes).values().forEach(out::addAll);
      return new ArrayList<>(out);
    }

    @Override
    public SortedMap<String, List<String>> filesByRepository(GramQuery grams,
        List<String> scopes) throws IOException {
      SortedMap<String, List<String>> out = new TreeMap<>();
      for (StoreReader r : readers.values()) {
        out.putAll(r.filesByRepository(grams, scopes));
      }
      return out;
    }

    @Override
    public Collection<String> paths(List<String> scopes) throws IOException {
      TreeSet<String> out = new TreeSet<>();
      for (StoreReader r : readers.values()) {
        out.addAll(r.paths(scopes));
      }
      return out;
    }

    @Override
    public ChunkDoc chunk(int chunk) throws IOException {
      return readers.get(repos.get(chunk)).chunk(locals.get(chunk));
    }

    @Override
    public @Nullable FileEntry file(String path) {
      throw new UnsupportedOperationException();
    }

    @Override
    public @Nullable FileEntry file(@Nullable String repository, String path)
        throws IOException {
      return readers.get(repository).file(repository, path);
    }

    @Override
    public byte @Nullable [] content(@Nullable String repository, String path)
        throws IOException {
      return readers.get(repository).content(repository, path);
    }
  }
}
