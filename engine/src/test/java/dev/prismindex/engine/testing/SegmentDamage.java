package dev.prismindex.engine.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * Damages a committed index the way a broken disk would: random bytes written over the middle of
 * one part (by file suffix: {@code .fdt} stored fields, {@code .doc} postings) of the largest
 * compound segment file that has that part, whose headers and footers stay intact so the index
 * still opens. Shared with the CLI's tests through the engine's test jar (only this package is in
 * it).
 */
public final class SegmentDamage {
  private SegmentDamage() {}

  /** Generates {@code files} Java files of 40 methods each, so that every part spans some KiB. */
  public static void generate(Path root, int files) throws IOException {
    for (int i = 0; i < files; i++) {
      StringBuilder b = new StringBuilder("package gen;\n\nclass Gen" + i + " {\n");
      for (int j = 0; j < 40; j++) {
        b.append("  int method").append(j).append("Value").append(i).append("(int x) { return x * ")
            .append(j).append("; }\n");
      }
      Path file = root.resolve("src/gen/Gen" + i + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, b.append("}\n").toString());
    }
  }

  /**
   * Writes up to 4 KiB of seeded random bytes over the middle of the part of the largest
   * {@code .cfs} file, in the Lucene directory of the index at {@code home}, whose name ends with
   * {@code suffix}.
   */
  public static void garble(Path home, String suffix) throws IOException {
    garble(home, suffix, 4096);
  }

  /**
   * As {@link #garble(Path, String)} with up to {@code maxBytes} random bytes around the middle of
   * the part (its first 64 and last 32 bytes stay intact).
   */
  public static void garble(Path home, String suffix, int maxBytes) throws IOException {
    Path lucene = home.resolve("lucene");
    List<Path> segments;
    try (Stream<Path> files = Files.list(lucene)) {
      segments = files.filter(p -> p.getFileName().toString().endsWith(".cfs"))
          .sorted(Comparator.comparingLong((Path p) -> p.toFile().length()).reversed())
          .toList();
    }
    if (segments.isEmpty()) {
      throw new IllegalStateException("no compound segment in " + lucene);
    }
    // The largest compound segment that has the part (a segment of vectors alone has no postings
    // or stored fields to speak of).
    Path cfs = null;
    long offset = -1;
    long length = 0;
    for (Path candidate : segments) {
      String cfe = candidate.getFileName().toString().replace(".cfs", ".cfe");
      try (FSDirectory dir = FSDirectory.open(lucene);
          IndexInput in = dir.openInput(cfe, IOContext.READONCE)) {
        in.seek(CodecUtil.indexHeaderLength("Lucene90CompoundEntries", ""));
        for (int n = in.readVInt(); n > 0; n--) {
          String name = in.readString();
          long start = in.readLong();
          long len = in.readLong();
          if (name.endsWith(suffix) && len >= 1024) {
            offset = start;
            length = len;
          }
        }
      }
      if (offset >= 0) {
        cfs = candidate;
        break;
      }
    }
    if (cfs == null) {
      throw new IllegalStateException("no part " + suffix + " of 1 KiB or more in " + segments);
    }
    long from = offset + Math.max(64, length / 2 - maxBytes / 2);
    byte[] junk = new byte[(int) Math.min(maxBytes, offset + length - 32 - from)];
    new Random(42).nextBytes(junk);
    try (RandomAccessFile raf = new RandomAccessFile(cfs.toFile(), "rw")) {
      raf.seek(from);
      raf.write(junk);
    }
  }
}
