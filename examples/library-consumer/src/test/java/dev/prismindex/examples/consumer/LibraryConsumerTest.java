package dev.prismindex.examples.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.prismindex.engine.Hit;
import dev.prismindex.repository.RepositorySearchMatch;
import dev.prismindex.repository.RepositorySearchResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example's searches on a tiny repository written to a temporary directory. */
class LibraryConsumerTest {

  @TempDir
  Path root;

  private void writeRepository() throws IOException {
    Files.createDirectories(root.resolve("src/time"));
    Files.writeString(root.resolve("src/time/Durations.java"), """
        package time;

        final class Durations {
          /** Parses "1h30m" into seconds. */
          static long parseDuration(String text) {
            return 0;
          }
        }
        """);
    Files.writeString(root.resolve("src/time/Clock.java"), """
        package time;

        final class Clock {
          long timeout = Durations.parseDuration("30s");
        }
        """);
    Files.writeString(root.resolve("README.md"), "Durations and clocks.\n");
  }

  @Test
  void theSeamServesTheScannersLinesFromTheIndex() throws IOException {
    writeRepository();

    RepositorySearchResult result = LibraryConsumer.searchThroughTheSeam(root, "parseDuration");

    assertTrue(result.untrustedIndex(), "answered by the index, not the scanner");
    List<String> lines = result.matches().stream()
        .map(m -> m.path() + ":" + m.line()).toList();
    assertEquals(List.of("src/time/Clock.java:4", "src/time/Durations.java:5"), lines);
    for (RepositorySearchMatch match : result.matches()) {
      assertTrue(match.text().contains("parseDuration"), match.text());
    }
  }

  @Test
  void fiveLinesIndexAndPrintTheBestHits() throws IOException {
    writeRepository();
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    java.io.PrintStream out = System.out;
    System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      LibraryConsumer.fiveLines(root, "parse duration");
    } finally {
      System.setOut(out);
    }
    String first = printed.toString(java.nio.charset.StandardCharsets.UTF_8).lines()
        .findFirst().orElse("");
    assertTrue(first.startsWith("src/time/Durations.java:5  static long parseDuration"), first);
  }

  @Test
  void theEngineIndexesTheRepositoryAndRanksTheDefinitionFirst() throws IOException {
    writeRepository();

    List<Hit> hits = LibraryConsumer.searchWithTheEngine(root, "parse duration");

    assertFalse(hits.isEmpty(), "no hit");
    assertEquals("src/time/Durations.java", hits.get(0).path());
    assertTrue(Files.isDirectory(root.resolve(".prism-index")), "the index lives in the repository");

    // A second run finds the index current and answers the same.
    assertEquals(hits, LibraryConsumer.searchWithTheEngine(root, "parse duration"));
  }
}
