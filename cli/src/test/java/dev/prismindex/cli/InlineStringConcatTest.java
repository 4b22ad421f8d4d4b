package dev.prismindex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.HybridIndex;
import dev.prismindex.repository.RegexPattern;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The modules a one-shot search runs are compiled with string concatenation inline (the parent
 * POM's {@code -XDstringConcat=inline}): no call site links through {@code
 * StringConcatFactory.makeConcatWithConstants}, which spins method-handle classes at a JVM's
 * start (docs/benchmarks.md, section 7, "One-shot").
 */
class InlineStringConcatTest {

  private static final byte[] BOOTSTRAP =
      "makeConcatWithConstants".getBytes(StandardCharsets.US_ASCII);

  @ParameterizedTest
  @ValueSource(classes = {Main.class, HybridIndex.class, RegexPattern.class})
  void noClassOfTheModuleLinksStringConcatenationAtRunTime(Class<?> member) throws Exception {
    Path location = location(member);
    List<String> linking = new ArrayList<>();
    int classes = 0;
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.walk(location)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
          classes++;
          if (contains(Files.readAllBytes(f), BOOTSTRAP)) {
            linking.add(location.relativize(f).toString());
          }
        }
      }
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        for (JarEntry e : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
          classes++;
          try (InputStream in = jar.getInputStream(e)) {
            if (contains(in.readAllBytes(), BOOTSTRAP)) {
              linking.add(e.getName());
            }
          }
        }
      }
    }
    assertThat(classes).as("classes read in %s", location).isPositive();
    assertThat(linking).as("classes with an invokedynamic string concatenation").isEmpty();
  }

  private static Path location(Class<?> member) throws URISyntaxException, IOException {
    return Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
