package dev.prismindex.benchmarks.quality;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The files of a corpus: extraction from a JDK {@code src.zip}, the copy of a repository tree that
 * is indexed (and whose answers' doc comments are blanked), and its file list.
 */
final class CorpusFiles {

  private CorpusFiles() {}

  /**
   * Extracts the {@code .java} entries of {@code zip} selected by {@code selectors} into {@code
   * dir}: {@code prefix/*} takes the files directly in {@code prefix}, {@code prefix/**} the whole
   * subtree. Returns the number of files written.
   */
  static int extractZip(Path zip, List<String> selectors, Path dir) throws IOException {
    int n = 0;
    try (ZipFile z = new ZipFile(zip.toFile())) {
      Enumeration<? extends ZipEntry> entries = z.entries();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        String name = e.getName();
        if (e.isDirectory() || !name.endsWith(".java") || !selected(name, selectors)) {
          continue;
        }
        Path out = dir.resolve(name).normalize();
        if (!out.startsWith(dir)) {
          throw new IOException("zip entry leaves the corpus directory: " + name);
        }
        Files.createDirectories(out.getParent());
        try (InputStream in = z.getInputStream(e)) {
          Files.copy(in, out);
        }
        n++;
      }
    }
    return n;
  }

  static boolean selected(String name, List<String> selectors) {
    for (String s : selectors) {
      if (s.endsWith("/**")) {
        if (name.startsWith(s.substring(0, s.length() - 2))) {
          return true;
        }
      } else if (s.endsWith("/*")) {
        String prefix = s.substring(0, s.length() - 1);
        if (name.startsWith(prefix) && name.indexOf('/', prefix.length()) < 0) {
          return true;
        }
      } else if (name.equals(s)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Copies every file below {@code from} into {@code dir} except version-control and index
   * directories ({@code .git}, {@code .hg}, {@code .svn}, {@code .prism-index}); symbolic links
   * are not followed. Returns the number of files written.
   */
  static int copyTree(Path from, Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(from)) {
      files = s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
          .filter(p -> !skipped(from.relativize(p))).sorted().toList();
    }
    for (Path p : files) {
      Path out = dir.resolve(from.relativize(p).toString());
      Files.createDirectories(out.getParent());
      Files.copy(p, out);
    }
    return files.size();
  }

  private static boolean skipped(Path relative) {
    for (Path part : relative) {
      String s = part.toString();
      if (s.equals(".git") || s.equals(".hg") || s.equals(".svn") || s.equals(".prism-index")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The files below {@code dir} outside dot-directories (the index's own among them),
   * corpus-relative with {@code /}, sorted.
   */
  static List<String> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .filter(p -> !p.startsWith(".") && !p.contains("/."))
          .sorted().toList();
    }
  }

  /**
   * Blanks the bytes {@code [start, end)} of {@code utf8} in place: every byte except line
   * terminators becomes a space, so every line keeps its number (a multi-byte character becomes
   * several spaces).
   */
  static void blank(byte[] utf8, int start, int end) {
    for (int i = start; i < end; i++) {
      if (utf8[i] != '\n' && utf8[i] != '\r') {
        utf8[i] = ' ';
      }
    }
  }
}
