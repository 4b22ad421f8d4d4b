package dev.prismindex.benchmarks;

import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.testing.EngineProbes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Chunks every file of the given trees whose language tree-sitter parses (UTF-8 text, {@code .git}
 * left out) on one thread, REPS times, and prints the files, chunks, CPU seconds of each rep and a
 * SHA-256 of every chunk (path, lines, symbols, parent, text). Run it once as is (the engine's
 * native library on linux-x86_64) and once with {@code -Dprism.treeSitter.native=false} (the
 * binding): equal digests mean equal chunks.
 *
 * <pre>{@code java [-Dprism.treeSitter.native=false] -cp benchmarks/target/benchmarks.jar \
 *     dev.prismindex.benchmarks.ChunkTiming REPS DIR...}</pre>
 */
public final class ChunkTiming {
  private ChunkTiming() {}

  public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
    int reps = Integer.parseInt(args[0]);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int a = 1; a < args.length; a++) {
      Path root = Path.of(args[a]);
      List<Path> files;
      try (Stream<Path> s = Files.walk(root)) {
        files = s.filter(Files::isRegularFile)
            .filter(p -> !root.relativize(p).startsWith(".git"))
            .filter(p -> EngineProbes.chunkable(EngineProbes.language(p.toString())))
            .sorted().toList();
      }
      try (EngineProbes.Chunking chunker = EngineProbes.chunking()) {
        for (int r = 0; r < reps; r++) {
          MessageDigest digest = MessageDigest.getInstance("SHA-256");
          long cpu = 0;
          int read = 0;
          long chunks = 0;
          for (Path p : files) {
            String text;
            try {
              text = StandardCharsets.UTF_8.newDecoder().decode(
                  java.nio.ByteBuffer.wrap(Files.readAllBytes(p))).toString();
            } catch (CharacterCodingException e) {
              continue;
            }
            read++;
            long t0 = threads.getCurrentThreadCpuTime();
            List<Chunk> result = chunker.chunk(text, EngineProbes.language(p.toString()));
            cpu += threads.getCurrentThreadCpuTime() - t0;
            chunks += result.size();
            digest.update(root.relativize(p).toString().getBytes(StandardCharsets.UTF_8));
            for (Chunk c : result) {
              digest.update((c.startLine() + ":" + c.endLine() + ":" + c.symbols() + ":"
                  + c.parent() + "\n" + c.text() + "\n").getBytes(StandardCharsets.UTF_8));
            }
          }
          System.out.printf("%s: %d files, %d chunks, chunking %.2f s CPU, chunks sha256 %s%n",
              root.getFileName(), read, chunks, cpu / 1e9,
              HexFormat.of().formatHex(digest.digest()).substring(0, 16));
        }
      }
    }
  }
}
