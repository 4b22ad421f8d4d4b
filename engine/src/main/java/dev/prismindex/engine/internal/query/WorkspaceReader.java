package dev.prismindex.engine.internal.query;

import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.internal.search.FileSource;
import dev.prismindex.engine.internal.search.FileView;
import dev.prismindex.engine.spi.Candidate;
import dev.prismindex.engine.spi.ChunkDoc;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.GramQuery;
import dev.prismindex.engine.spi.LexicalQuery;
import dev.prismindex.engine.spi.StoreReader;
import dev.prismindex.engine.spi.VectorQuery;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The readers of a workspace's indexes as one {@link StoreReader}, so that {@link RankedSearch}
 * ranks the workspace exactly as it ranks one index: each signal's candidates come from every
 * index (BM25 scored with the workspace's merged statistics by the readers it is given, cosines
 * as they are), each score multiplied by its index's weight ({@link Part#weight()}, the
 * repository prior), merged into one list by score and ranked anew, cut at the request's depth. Its
 * chunk ids are its own, each standing for one index and that reader's id, so the lexical and the
 * semantic candidate of one chunk carry the same id and fuse. Each chunk's file is read in its
 * own repository ({@link FileSource}) and its hits name that repository.
 *
 * <p>Ties between indexes (equal scores) go to the index that comes first, then the index's own
 * order, so the merged order is total. Exact search ({@link #files}) and lookups by path alone
 * ({@link #file}) are not offered: a path names a file only within one repository (the
 * workspace's literal answers run per repository).
 */
final class WorkspaceReader implements StoreReader, FileSource {

  /**
   * One index of the workspace as this search reads it.
   *
   * @param name the repository's name in the workspace
   * @param root its working tree
   * @param maxFileBytes the largest file its index holds
   * @param reader a reader of its last commit (BM25 with the merged statistics)
   * @param damage turns a failed read into the index's {@link CorruptIndexException} when the
   *     failure comes from damage, else null
   * @param weight what its candidates' scores are multiplied by before the merge, in (0, 1]
   *     ({@link RepositoryPrior}; 1: as they are)
   */
  record Part(String name, Path root, long maxFileBytes, StoreReader reader,
      Function<Throwable, @Nullable CorruptIndexException> damage, double weight) {}

  /** A read of one part. */
  @FunctionalInterface
  private interface Read<T> {
    T get() throws IOException;
  }

  /** One part's candidate with its score weighed ({@link Part#weight()}), for the merge. */
  private record Entry(int part, Candidate candidate, double score) {}

  private static final Comparator<Entry> ORDER =
      Comparator.comparingDouble(Entry::score).reversed()
          .thenComparingInt(Entry::part)
          .thenComparingInt(e -> e.candidate().rank());

  private final List<Part> parts;
  /** This reader's chunk id -> part (high 32 bits) and the part's chunk id (low 32 bits). */
  private final List<Long> origins = new ArrayList<>();
  private final Map<Long, Integer> ids = new HashMap<>();
  private final List<Map<String, FileView>> views = new ArrayList<>();

  WorkspaceReader(List<Part> parts) {
    this.parts = List.copyOf(parts);
    for (int i = 0; i < parts.size(); i++) {
      views.add(new HashMap<>());
    }
  }

  /** The id of the part's chunk {@code local} in this reader, given at first sight. */
  private int id(int part, int local) {
    long origin = ((long) part << 32) | (local & 0xFFFFFFFFL);
    Integer id = ids.get(origin);
    if (id == null) {
      id = origins.size();
      origins.add(origin);
      ids.put(origin, id);
    }
    return id;
  }

  private int part(int chunk) {
    return (int) (origins.get(chunk) >>> 32);
  }

  private int local(int chunk) {
    return (int) (long) origins.get(chunk);
  }

  /** Runs a read of part {@code p}, its failures attributed to that part's index. */
  private <T> T read(int p, Read<T> read) throws IOException {
    try {
      return read.get();
    } catch (IOException | RuntimeException e) {
      CorruptIndexException damage = parts.get(p).damage().apply(e);
      if (damage != null) {
        throw damage;
      }
      throw e;
    }
  }

  /** No single commit: the parts' records are read by the caller. */
  @Override
  public CommitRecord commit() {
    return CommitRecord.EMPTY;
  }

  @Override
  public List<Candidate> lexical(LexicalQuery query) throws IOException {
    List<Entry> all = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      StoreReader r = parts.get(p).reader();
      for (Candidate c : read(p, () -> r.lexical(query))) {
        all.add(entry(p, c));
      }
    }
    return merge(all, query.depth());
  }

  @Override
  public List<Candidate> nearest(VectorQuery query) throws IOException {
    List<Entry> all = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      StoreReader r = parts.get(p).reader();
      for (Candidate c : read(p, () -> r.nearest(query))) {
        all.add(entry(p, c));
      }
    }
    return merge(all, query.depth());
  }

  /** Part {@code p}'s candidate, its score weighed (a negative one divided by the weight). */
  private Entry entry(int p, Candidate c) {
    double w = parts.get(p).weight();
    return new Entry(p, c, w == 1 ? c.score() : c.score() >= 0 ? c.score() * w : c.score() / w);
  }

  /** The best {@code depth} of every part's candidates, ranked anew, with this reader's ids. */
  private List<Candidate> merge(List<Entry> all, int depth) {
    all.sort(ORDER);
    List<Candidate> out = new ArrayList<>(Math.min(depth, all.size()));
    for (Entry e : all) {
      if (out.size() == depth) {
        break;
      }
      Candidate c = e.candidate();
      out.add(new Candidate(id(e.part(), c.chunk()), out.size() + 1, e.score(),
          c.parts()));
    }
    return out;
  }

  /** Not offered: a workspace's exact search runs per repository. */
  @Override
  public List<String> files(GramQuery grams, List<String> scopes) {
    throw new UnsupportedOperationException("exact search of a workspace runs per repository");
  }

  /** The paths of every part (a path filter built from them selects the same paths in each). */
  @Override
  public Collection<String> paths(List<String> scopes) throws IOException {
    TreeSet<String> out = new TreeSet<>();
    for (int p = 0; p < parts.size(); p++) {
      StoreReader r = parts.get(p).reader();
      out.addAll(read(p, () -> r.paths(scopes)));
    }
    return out;
  }

  @Override
  public ChunkDoc chunk(int chunk) throws IOException {
    int p = part(chunk);
    StoreReader r = parts.get(p).reader();
    return read(p, () -> r.chunk(local(chunk)));
  }

  /** Not offered: a path names a file within one repository only ({@link #view} reads it). */
  @Override
  public @Nullable FileEntry file(String path) {
    throw new UnsupportedOperationException("a workspace's files are read through its parts");
  }

  @Override
  public void prefetchFiles(Collection<Integer> chunks) throws IOException {
    List<List<Integer>> byPart = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      byPart.add(new ArrayList<>());
    }
    for (int chunk : chunks) {
      byPart.get(part(chunk)).add(local(chunk));
    }
    for (int p = 0; p < parts.size(); p++) {
      List<Integer> locals = byPart.get(p);
      if (!locals.isEmpty()) {
        StoreReader r = parts.get(p).reader();
        read(p, () -> {
          r.prefetchFiles(locals);
          return null;
        });
      }
    }
  }

  @Override
  public FileView view(int chunk, String path) throws IOException {
    int p = part(chunk);
    Part part = parts.get(p);
    Map<String, FileView> cache = views.get(p);
    FileView view = cache.get(path);
    if (view == null) {
      FileEntry entry = read(p, () -> part.reader().file(path));
      view = FileView.load(part.root(), path, entry, part.maxFileBytes());
      cache.put(path, view);
    }
    return view;
  }

  @Override
  public String repo(int chunk) {
    return parts.get(part(chunk)).name();
  }
}
