package dev.prismindex.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.engine.EngineScore;
import dev.prismindex.engine.Hit;
import dev.prismindex.engine.Staleness;
import dev.prismindex.repository.SearchMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The hits of a search beside the freshness probe: held, then printed in order, or dropped. */
class HeldHitsTest {

  private final List<String> printed = new ArrayList<>();
  private final AtomicReference<Staleness> answer = new AtomicReference<>();
  private final FutureTask<Staleness> probe = new FutureTask<>(answer::get);
  private final HeldHits hits =
      new HeldHits(probe, () -> printed.add("begin"), h -> printed.add(h.path()));

  private static Hit hit(String path) {
    return new Hit(path, 1, 1, 0, "x", 1.0, SearchMode.LITERAL, "java", null, null, null,
        new EngineScore(1, 1.0));
  }

  private void probeAnswers(int changedFiles) {
    answer.set(new Staleness(changedFiles, 0, 0, 10, 1, Map.of()));
    probe.run();
  }

  @Test
  void hitsBeforeTheProbeAnswersAreHeldThenPrintedInOrderAfterTheHeader() {
    hits.accept(hit("a"));
    hits.accept(hit("b"));
    assertThat(printed).as("nothing before the probe answers").isEmpty();

    probeAnswers(0);
    hits.accept(hit("c"));
    assertThat(printed).containsExactly("begin", "a", "b", "c");
    hits.accept(hit("d"));
    assertThat(printed).containsExactly("begin", "a", "b", "c", "d");
  }

  @Test
  void aSearchEndingBeforeTheProbeIsPrintedOnRelease() {
    hits.accept(hit("a"));
    probeAnswers(0);
    hits.release();
    hits.release();
    assertThat(printed).containsExactly("begin", "a");
  }

  @Test
  void aChangeDropsTheHeldHitsAndEveryLaterOne() {
    hits.accept(hit("a"));
    probeAnswers(2);
    hits.accept(hit("b"));
    hits.accept(hit("c"));
    assertThat(printed).as("the caller searches again after catching up").isEmpty();
  }

  @Test
  void aFailedProbeDropsTheHits() {
    FutureTask<Staleness> failing = new FutureTask<>(() -> {
      throw new java.io.IOException("walk failed");
    });
    HeldHits held = new HeldHits(failing, () -> printed.add("begin"), h -> printed.add(h.path()));
    held.accept(hit("a"));
    failing.run();
    held.accept(hit("b"));
    assertThat(printed).isEmpty();
  }
}
