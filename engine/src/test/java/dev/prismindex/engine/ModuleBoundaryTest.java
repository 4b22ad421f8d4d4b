package dev.prismindex.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's module boundary (docs/architecture.md, "The module boundary"): the engine cannot be
 * a named module (the tree-sitter binding's jars split a package), so this test says what a module
 * descriptor would: nothing outside the engine names {@code dev.prismindex.engine.internal}, and the
 * public API and the store SPI expose no internal type.
 */
class ModuleBoundaryTest {

  private static final String INTERNAL = "dev.prismindex.engine.internal";
  private static final Pattern INTERNAL_NAME = Pattern.compile(
      "\\bdev\\.prismindex\\.engine\\.internal\\b");

  /** The repository's root: the parent of this module's directory (surefire runs in it). */
  private static Path repositoryRoot() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    assertThat(Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8))
        .as("the parent of %s is the project's root", Path.of("").toAbsolutePath())
        .contains("<module>engine</module>");
    return root;
  }

  /**
   * Every Java file of the other modules (main and test sources, the examples) that names the
   * engine's internal packages: none. Read as text, so an import, a fully qualified name and a
   * string all count.
   */
  @Test
  void nothingOutsideTheEngineNamesItsInternals() throws IOException {
    Path root = repositoryRoot();
    Set<String> modules = new TreeSet<>();
    List<String> breaches = new ArrayList<>();
    for (Path source : otherSources(root)) {
      modules.add(root.relativize(source).getName(0).toString());
      List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (INTERNAL_NAME.matcher(lines.get(i)).find()) {
          breaches.add(root.relativize(source) + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
      }
    }
    assertThat(modules).as("modules scanned").contains("core", "cli", "opensearch",
        "benchmarks", "model-minilm", "examples");
    assertThat(breaches).as("uses of %s outside the engine (use its API, its SPI, or the"
        + " engine's test fixtures)", INTERNAL).isEmpty();
  }

  /** The {@code .java} files under every {@code src} directory of the root's other folders. */
  private static List<Path> otherSources(Path root) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      files.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
          .filter(p -> {
            Path rel = root.relativize(p);
            return !rel.getName(0).toString().equals("engine")
                && !rel.getName(0).toString().startsWith(".")
                && rel.toString().contains("src" + rel.getFileSystem().getSeparator())
                && !rel.toString().contains("target" + rel.getFileSystem().getSeparator());
          })
          .forEach(out::add);
    }
    return out;
  }

  /**
   * No public or protected member of a public type of {@code dev.prismindex.engine} or {@code
   * dev.prismindex.engine.spi} takes, returns or holds a type of the internal packages (generic
   * arguments included).
   */
  @Test
  void theApiAndTheSpiExposeNoInternalType() throws Exception {
    List<String> breaches = new ArrayList<>();
    List<Class<?>> types = publicTypes(List.of("dev.prismindex.engine",
        "dev.prismindex.engine.spi"));
    assertThat(types).extracting(Class::getSimpleName)
        .contains("HybridIndex", "Store", "StoreReader", "DocumentSink");
    for (Class<?> c : types) {
      List<String> signatures = new ArrayList<>();
      signatures.add(String.valueOf(c.getGenericSuperclass()));
      for (var i : c.getGenericInterfaces()) {
        signatures.add(i.getTypeName());
      }
      for (Method m : c.getDeclaredMethods()) {
        if (exposed(m.getModifiers()) && !m.isSynthetic()) {
          signatures.add(m.toGenericString());
        }
      }
      for (Constructor<?> k : c.getDeclaredConstructors()) {
        if (exposed(k.getModifiers()) && !k.isSynthetic()) {
          signatures.add(k.toGenericString());
        }
      }
      for (Field f : c.getDeclaredFields()) {
        if (exposed(f.getModifiers()) && !f.isSynthetic()) {
          signatures.add(f.toGenericString());
        }
      }
      if (c.isRecord()) {
        for (RecordComponent rc : c.getRecordComponents()) {
          signatures.add(rc.getGenericType().getTypeName());
        }
      }
      for (String s : signatures) {
        if (s.contains(INTERNAL + ".")) {
          breaches.add(c.getName() + ": " + s);
        }
      }
    }
    assertThat(breaches).as("internal types in the API or the SPI").isEmpty();
  }

  private static boolean exposed(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /** The public (and nested public) types of {@code packages}, from this module's classes. */
  private static List<Class<?>> publicTypes(List<String> packages)
      throws IOException, URISyntaxException, ClassNotFoundException {
    Path classes = Path.of(HybridIndex.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI());
    List<Class<?>> out = new ArrayList<>();
    for (String pkg : packages) {
      Path dir = classes.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          String name = f.getFileName().toString();
          if (!name.endsWith(".class") || name.equals("package-info.class")) {
            continue;
          }
          Class<?> c = Class.forName(pkg + "." + name.substring(0, name.length() - 6), false,
              ModuleBoundaryTest.class.getClassLoader());
          if (Modifier.isPublic(c.getModifiers()) && !c.isAnonymousClass()
              && (c.getEnclosingClass() == null || Modifier.isPublic(
                  c.getEnclosingClass().getModifiers()))) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }
}
