import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Build tool of the distribution (not part of prism-index): copies a jar without the entries a list
 * of rules drops, so a platform archive carries only its platform's native libraries. Run by
 * distribution/pom.xml with the JDK's source launcher:
 *
 * <pre>java PlatformJar.java IN.jar OUT.jar RULE...</pre>
 *
 * <p>A rule is {@code -GLOB} (drop) or {@code +GLOB} (keep), a glob over entry names such as
 * {@code -ai/onnxruntime/native/**}; the last rule that matches an entry decides, and an entry no
 * rule matches is kept. The JDK's zip file system removes the entries in place and copies the
 * others as they are, still compressed: a few seconds for a 100 MB jar, where re-compressing took a
 * minute. Directories left empty are removed. Prints what it dropped.
 */
public final class PlatformJar {
  private PlatformJar() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: java PlatformJar.java IN.jar OUT.jar (-GLOB|+GLOB)...");
      System.exit(2);
    }
    Path in = Path.of(args[0]);
    Path out = Path.of(args[1]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
    long dropped = 0;
    long droppedBytes = 0;
    try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + out.toAbsolutePath().toUri()),
        Map.of())) {
      List<Rule> rules = new ArrayList<>();
      for (int i = 2; i < args.length; i++) {
        String r = args[i];
        if (r.length() < 2 || (r.charAt(0) != '-' && r.charAt(0) != '+')) {
          throw new IllegalArgumentException("a rule is -GLOB or +GLOB: " + r);
        }
        rules.add(new Rule(r.charAt(0) == '+', jar.getPathMatcher("glob:" + r.substring(1))));
      }
      Path root = jar.getPath("/");
      List<Path> files;
      try (Stream<Path> all = Files.walk(root)) {
        files = all.filter(Files::isRegularFile).toList();
      }
      for (Path file : files) {
        Path name = root.relativize(file);
        boolean keep = true;
        for (Rule rule : rules) {
          if (rule.matcher().matches(name)) {
            keep = rule.keep();
          }
        }
        if (!keep) {
          droppedBytes += Files.size(file);
          Files.delete(file);
          dropped++;
        }
      }
      List<Path> dirs;
      try (Stream<Path> all = Files.walk(root)) {
        dirs = all.filter(Files::isDirectory).filter(d -> !d.equals(root))
            .sorted(Comparator.comparingInt(Path::getNameCount).reversed()).toList();
      }
      for (Path dir : dirs) {
        try (Stream<Path> children = Files.list(dir)) {
          if (children.findAny().isEmpty()) {
            Files.delete(dir);
          }
        }
      }
    }
    System.out.printf("PlatformJar: %s: dropped %d entries (%d MB uncompressed), %d MB left%n",
        out.getFileName(), dropped, droppedBytes >> 20, Files.size(out) >> 20);
  }

  private record Rule(boolean keep, PathMatcher matcher) {}
}
