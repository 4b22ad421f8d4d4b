package dev.prismindex.engine.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * Damages a committed index the way a broken disk would: random bytes written over the middle of
 * the largest part with a file suffix ({@code .fdt} stored fields, {@code .doc} postings), a file
 * of its own or inside a compound segment file, whose headers and footers stay intact so the index
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
   * Writes up to 4 KiB of seeded random bytes over the middle of the largest part, in the Lucene
   * directory of the index at {@code home}, whose name ends with {@code suffix}.
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
    // Every part with that suffix, of 1 KiB or more: a file of its own (a segment merged into one
    // is not compound), or an entry of a compound file; the largest is damaged (a segment of
    // vectors alone has no postings or stored fields to speak of).
    Path target = null;
    long offset = -1;
    long length = 0;
    List<Path> files;
    try (Stream<Path> list = Files.list(lucene)) {
      files = list.sorted().toList();
    }
    for (Path file : files) {
      String name = file.getFileName().toString();
      if (name.endsWith(suffix) && Files.size(file) >= 1024 && Files.size(file) > length) {
        target = file;
        offset = 0;
        length = Files.size(file);
      } else if (name.endsWith(".cfs")) {
        String cfe = name.replace(".cfs", ".cfe");
        try (FSDirectory dir = FSDirectory.open(lucene);
            IndexInput in = dir.openInput(cfe, IOContext.READONCE)) {
          in.seek(CodecUtil.indexHeaderLength("Lucene90CompoundEntries", ""));
          for (int n = in.readVInt(); n > 0; n--) {
            String part = in.readString();
            long start = in.readLong();
            long len = in.readLong();
            if (part.endsWith(suffix) && len >= 1024 && len > length) {
              target = file;
              offset = start;
              length = len;
            }
          }
        }
      }
    }
    if (target == null) {
      throw new IllegalStateException("no part " + suffix + " of 1 KiB or more in " + lucene);
    }
    long from = offset + Math.max(64, length / 2 - maxBytes / 2);
    byte[] junk = new byte[(int) Math.min(maxBytes, offset + length - 32 - from)];
    new Random(42).nextBytes(junk);
    try (RandomAccessFile raf = new RandomAccessFile(target.toFile(), "rw")) {
      raf.seek(from);
      raf.write(junk);
    }
  }
}
