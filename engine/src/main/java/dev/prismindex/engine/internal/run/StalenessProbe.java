package dev.prismindex.engine.internal.run;

import dev.prismindex.engine.SkipReason;
import dev.prismindex.engine.Staleness;
import dev.prismindex.engine.internal.EngineContext;
import dev.prismindex.engine.internal.pipeline.FileReader;
import dev.prismindex.engine.internal.pipeline.FileStat;
import dev.prismindex.engine.internal.walk.WalkResult;
import dev.prismindex.engine.internal.walk.WalkedFile;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The cheap freshness probe: a walk with the refresh's rules, each file's stat data (read by the
 * walk) compared with the manifest of the last commit; files the index does not have are sniffed
 * (read whole) so binary files and secrets are not reported as added, unless the last
 * run remembered them skipped with the same stat data. Every skip is counted under the reason the
 * run gives it (by the walk, by size, by content).
 */
public final class StalenessProbe {

  private final EngineContext ctx;

  public StalenessProbe(EngineContext ctx) {
    this.ctx = ctx;
  }

  /** See {@code HybridIndex.staleness}. */
  public Staleness probe() throws IOException {
    long started = System.nanoTime();
    WalkResult walk = ctx.walker().walk();
    Map<SkipReason, Integer> skipped = new EnumMap<>(SkipReason.class);
    skipped.putAll(walk.skipped());
    Map<String, FileEntry> manifest = ctx.store().manifest();
    Map<String, SkippedFile> remembered = ctx.store().skipped();
    int added = 0;
    int modified = 0;
    int unchanged = 0;
    Set<String> seen = new HashSet<>();
    for (WalkedFile f : walk.files()) {
      String path = f.path();
      FileStat stat = FileStat.of(f, ctx.options().maxFileBytes());
      if (!stat.indexable()) {
        skipped.merge(stat.skip(), 1, Integer::sum); // over the size cap, as the run counts it
        continue;
      }
      FileEntry e = manifest.get(path);
      if (e == null) {
        SkippedFile before = remembered.get(path);
        SkipReason reason = before != null && stat.matches(before) ? before.reason()
            : sniff(path, ctx.options().root().resolve(path));
        if (reason == null) {
          added++;
        } else {
          skipped.merge(reason, 1, Integer::sum);
        }
        continue;
      }
      seen.add(path);
      if (stat.matches(e)) {
        unchanged++;
      } else {
        modified++;
      }
    }
    int deleted = 0;
    for (String path : manifest.keySet()) {
      if (!seen.contains(path)) {
        deleted++;
      }
    }
    return new Staleness(added, modified, deleted, unchanged,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), skipped);
  }

  /**
   * Why the indexer would skip a file by its content (a secret anywhere in it, binary), or null:
   * the file is read whole (it is within the size cap), as the indexer reads it.
   */
  private @Nullable SkipReason sniff(String path, Path file) {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] head = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8,
          Math.max(ctx.options().exactMaxFileBytes(),
              FileReader.BINARY_SNIFF_BYTES)));
      SkipReason secret = ctx.rules().skipByContent(path, head, head.length);
      if (secret != null) {
        return secret;
      }
      return FileReader.isBinary(head, head.length) ? SkipReason.BINARY : null;
    } catch (IOException e) {
      return SkipReason.UNREADABLE;
    }
  }
}
