package dev.prismindex.benchmarks;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.testing.EngineProbes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;

/**
 * How often the content rules for secrets (the engine's private-key headers and {@code
 * SecretContent}'s formats, through {@code EngineProbes.secretIn}) flag a file of ordinary code:
 * walks each directory given with the indexing walk's rules (ignore files, pruned directories, the
 * name deny list), reads every text file within the size cap as the indexer does, and prints each
 * file flagged with what was
 * found, then the count per corpus and in all, per 10 000 files. Issue 41's target: at most 1 in
 * 10 000 on the quality corpora. Each flagged file is to be read by a person: a real secret in a
 * corpus is not a false positive.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.prismindex.benchmarks.SecretScan DIR...
 * </pre>
 */
public final class SecretScan {

  private SecretScan() {}

  public static void main(String[] args) throws IOException {
    long files = 0;
    long flagged = 0;
    for (String arg : args) {
      Path root = Path.of(arg).toAbsolutePath().normalize();
      HybridIndexOptions options = HybridIndexOptions.builder(root)
          .home(Files.createTempDirectory("secret-scan")).semantic(false).build();
      long n = 0;
      long hits = 0;
      for (String rel : HybridIndex.walk(options)) {
        Path file = root.resolve(rel);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
            || Files.size(file) > options.maxFileBytes()) {
          continue;
        }
        byte[] bytes = Files.readAllBytes(file);
        if (EngineProbes.binary(bytes, bytes.length)) {
          continue;
        }
        n++;
        String found = EngineProbes.secretIn(bytes, bytes.length);
        if (found != null) {
          hits++;
          System.out.println("flagged\t" + root.getFileName() + "/" + rel + "\t" + found);
        }
      }
      System.out.printf(Locale.ROOT, "corpus\t%s\t%d text files\t%d flagged%n", root, n, hits);
      files += n;
      flagged += hits;
    }
    System.out.printf(Locale.ROOT, "total\t%d text files\t%d flagged\t%.2f per 10 000%n", files,
        flagged, files == 0 ? 0 : flagged * 10_000.0 / files);
  }
}
