package dev.prismindex.benchmarks;

import dev.prismindex.index.InMemoryIndex.ContentSource;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * The seed's benchmark fixture: {@code files} files {@code src/module-<i>/index.ts}, each holding the
 * line {@code // module <i>}. Content is generated when the index reads it (nothing is kept here
 * except, once {@link #edit} was called, one version counter per file), so the heap a loaded index
 * retains is the index's own.
 */
public final class SeedFixture implements ContentSource {

  /** The seed's fixture size. */
  public static final int FILES = 100_000;

  private static final String PREFIX = "src/module-";
  private static final String SUFFIX = "/index.ts";

  private final int files;
  private int @Nullable [] versions;

  /** A fixture of {@code files} files. */
  public SeedFixture(int files) {
    this.files = files;
  }

  public int files() {
    return files;
  }

  /** The path of file {@code i}. */
  public static String path(int i) {
    return PREFIX + i + SUFFIX;
  }

  /** Gives file {@code i} new content ({@code // module <i> v<n>}) for the next read. */
  public synchronized void edit(int i) {
    if (versions == null) {
      versions = new int[files];
    }
    versions[i]++;
  }

  @Override
  public synchronized byte @Nullable [] read(String path, long maxBytes) {
    int i = indexOf(path);
    if (i < 0) {
      return null;
    }
    int version = versions == null ? 0 : versions[i];
    String text = "// module " + i + (version == 0 ? "" : " v" + version) + "\n";
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private int indexOf(String path) {
    if (!path.startsWith(PREFIX) || !path.endsWith(SUFFIX)) {
      return -1;
    }
    try {
      int i = Integer.parseInt(path.substring(PREFIX.length(), path.length() - SUFFIX.length()));
      return i >= 0 && i < files ? i : -1;
    } catch (NumberFormatException notOurs) {
      return -1;
    }
  }

  /**
   * {@code count} seeded queries {@code module-<k>}, {@code k} uniform over the files (the seed's
   * query shape: each must find {@code src/module-<k>/index.ts}).
   */
  public String[] queries(int count, long seed) {
    Random random = new Random(seed);
    String[] queries = new String[count];
    for (int q = 0; q < count; q++) {
      queries[q] = "module-" + random.nextInt(files);
    }
    return queries;
  }

  /** {@code count} seeded semantic queries {@code module <k> index}. */
  public String[] semanticQueries(int count, long seed) {
    Random random = new Random(seed);
    String[] queries = new String[count];
    for (int q = 0; q < count; q++) {
      queries[q] = "module " + random.nextInt(files) + " index";
    }
    return queries;
  }
}
