package dev.prismindex.engine.internal.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The on-disk layout of an index home: the Lucene files live in {@value #LUCENE_DIR} below it.
 * Only the engine knows this layout; other modules ask {@code HybridIndex}.
 */
public final class IndexFiles {

  private static final Logger LOG = LoggerFactory.getLogger(IndexFiles.class);

  /** The directory of the Lucene files, below the index home. */
  public static final String LUCENE_DIR = "lucene";

  /**
   * The file, in the index home, that says a run found the index damaged (its text: what it found),
   * so that every later run, in any process, knows it until a rebuild or a verification that
   * passes removes it.
   */
  public static final String DAMAGE_FILE = "damaged";

  private IndexFiles() {}

  /** The Lucene directory of {@code home}. */
  public static Path lucene(Path home) {
    return home.resolve(LUCENE_DIR);
  }

  /**
   * Whether an index has been created in {@code home}: its Lucene entry exists (when that is not a
   * directory, opening reports the index corrupt).
   */
  public static boolean exists(Path home) {
    return Files.exists(lucene(home), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Deletes the regular files of the Lucene directory (never following links, never recursing) and
   * the {@link #DAMAGE_FILE}, so a full rebuild can replace an index that cannot be opened; or, when something other than a
   * directory stands in its place inside the index home, that entry.
   */
  public static void delete(Path home) throws IOException {
    Files.deleteIfExists(home.resolve(DAMAGE_FILE));
    Path lucene = lucene(home);
    if (Files.exists(lucene, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(lucene)) {
      LOG.debug("replacing {}, which is not a directory", lucene);
      Files.delete(lucene);
      return;
    }
    if (!Files.isDirectory(lucene, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(lucene)) {
      for (Path f : files) {
        if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
          Files.delete(f);
        }
      }
    }
  }

  /** The generation of the newest Lucene commit ({@code segments_N}), or -1 when there is none. */
  public static long lastCommitGeneration(Path home) throws IOException {
    String[] names;
    try (java.util.stream.Stream<Path> files = Files.list(lucene(home))) {
      names = files.map(f -> f.getFileName().toString()).toArray(String[]::new);
    } catch (NoSuchFileException e) {
      return -1;
    }
    return org.apache.lucene.index.SegmentInfos.getLastCommitGeneration(names);
  }
}
