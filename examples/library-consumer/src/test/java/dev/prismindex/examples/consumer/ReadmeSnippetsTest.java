package dev.prismindex.examples.consumer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository's README shows this example's code: every region marked {@code [readme:NAME]} ...
 * {@code [/readme:NAME]} in the example's pom and sources must appear in README.md verbatim (less
 * the region's common indentation), so the README's snippets always compile. Not part of the
 * example proper: delete this test in a copy of it.
 */
class ReadmeSnippetsTest {

  private static final Path README = Path.of("../../README.md");
  private static final Pattern BEGIN = Pattern.compile("\\[readme:([a-z-]+)]");

  @Test
  void everyMarkedRegionIsInTheReadme() throws IOException {
    assertTrue(Files.isRegularFile(README), "README.md not found at " + README.toAbsolutePath());
    String readme = Files.readString(README);
    List<Path> sources = new ArrayList<>(List.of(Path.of("pom.xml"),
        Path.of("src/main/java/dev/prismindex/examples/consumer/LibraryConsumer.java")));
    List<String> regions = new ArrayList<>();
    for (Path source : sources) {
      regions.addAll(regions(Files.readAllLines(source)));
    }
    assertFalse(regions.isEmpty(), "no marked region");
    for (String region : regions) {
      assertTrue(readme.contains("\n" + region + "\n"),
          "README.md does not contain this region of the example (copy it again):\n" + region);
    }
  }

  /** The marked regions of one file, each dedented and joined with newlines. */
  static List<String> regions(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher begin = BEGIN.matcher(lines.get(i));
      if (!begin.find()) {
        continue;
      }
      String end = "[/readme:" + begin.group(1) + "]";
      List<String> body = new ArrayList<>();
      int j = i + 1;
      while (!lines.get(j).contains(end)) {
        body.add(lines.get(j++));
      }
      out.add(dedent(body));
      i = j;
    }
    return out;
  }

  private static String dedent(List<String> body) {
    int indent = body.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    List<String> out = new ArrayList<>();
    for (String line : body) {
      out.add(line.isBlank() ? "" : line.substring(indent));
    }
    return String.join("\n", out);
  }
}
