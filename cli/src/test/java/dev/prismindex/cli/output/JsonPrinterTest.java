package dev.prismindex.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.repository.SearchMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An exact search's NDJSON: one generator writes every line, and the fields every hit shares
 * ({@code freshness}, {@code notSearched}) are written once and repeated; each line is still the
 * whole hit object of schema version 1, its repository's freshness included.
 */
class JsonPrinterTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final JsonPrinter printer = new JsonPrinter(
      new PrintStream(out, true, StandardCharsets.UTF_8),
      new PrintStream(err, true, StandardCharsets.UTF_8));

  private static Hit hit(String path, int line, String snippet) {
    return new Hit(path, line, line, 2, snippet, 1.0, SearchMode.LITERAL, "java", null, null,
        null, new EngineScore(line, 1.0));
  }

  /** The object {@link JsonObjects#hit} writes with {@code tail} before its {@code v}. */
  private static String expected(Hit hit, String tail) {
    String object = JsonObjects.json(g -> JsonObjects.hit(g, hit));
    return object.substring(0, object.length() - 1) + tail + ",\"v\":1}";
  }

  @Test
  void everyLineIsTheWholeHitWithItsRepositorysFreshnessAndTheFilesLeftOut() {
    ExactPrinter p = printer.exact("needle");
    Freshness main = new Freshness(true, 2, 2, false, false);
    Freshness other = new Freshness(true, 0, 0, true, false);
    p.begin("literal", main, Map.of("other", other), Map.of("binary", 1, "oversize", 2));
    Hit first = hit("a \"quoted\"\tname.java", 3, "needle \\ \u00e9 \uD83D\uDE00");
    Hit second = hit("b.java", 7, "needle").withRepo("other");
    Hit third = hit("c.java", 9, "needle").withRepo("unknown");
    p.hit(first);
    p.hit(second);
    p.hit(third);

    String left = ",\"notSearched\":{\"binary\":1,\"oversize\":2}";
    assertThat(out.toString(StandardCharsets.UTF_8).split("\n", -1)).containsExactly(
        expected(first, ",\"freshness\":{\"checked\":true,\"changedFiles\":2,\"refreshedFiles\":2,"
            + "\"skippedBecauseLocked\":false,\"indexReadOnly\":false}" + left),
        expected(second, ",\"freshness\":{\"checked\":true,\"changedFiles\":0,\"refreshedFiles\":0,"
            + "\"skippedBecauseLocked\":true,\"indexReadOnly\":false}" + left),
        expected(third, ",\"freshness\":{\"checked\":true,\"changedFiles\":2,\"refreshedFiles\":2,"
            + "\"skippedBecauseLocked\":false,\"indexReadOnly\":false}" + left),
        "");
  }

  @Test
  void withNothingLeftOutTheLineEndsWithFreshnessAndVersion() {
    ExactPrinter p = printer.exact("needle");
    p.begin("literal", Freshness.NOT_CHECKED, Map.of(), Map.of());
    Hit only = hit("a.java", 1, "needle");
    p.hit(only);

    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected(only,
        ",\"freshness\":{\"checked\":false,\"changedFiles\":0,\"refreshedFiles\":0,"
            + "\"skippedBecauseLocked\":false,\"indexReadOnly\":false}") + "\n");
    assertThat(List.of(err.toString(StandardCharsets.UTF_8))).containsExactly("");
  }
}
