package dev.prismindex.cli.command;

import dev.prismindex.engine.Hit;
import dev.prismindex.engine.Staleness;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;

/**
 * The hits of a search that runs beside the freshness probe: held until the probe answers, then
 * printed (after the answer's header) and passed straight through when it found nothing
 * changed, or dropped when it found a change or failed (the caller then decides from the probe).
 */
final class HeldHits {
  private final FutureTask<Staleness> probe;
  private final Runnable begin;
  private final Consumer<Hit> print;
  private final List<Hit> held = new ArrayList<>();
  private boolean printing;
  private boolean dropping;

  HeldHits(FutureTask<Staleness> probe, Runnable begin, Consumer<Hit> print) {
    this.probe = probe;
    this.begin = begin;
    this.print = print;
  }

  void accept(Hit hit) {
    if (!printing && !dropping && probe.isDone()) {
      if (probeFoundNoChange()) {
        release();
      } else {
        dropping = true;
        held.clear();
      }
    }
    if (printing) {
      print.accept(hit);
    } else if (!dropping) {
      held.add(hit);
    }
  }

  /** Prints the header and the held hits once (the probe found nothing changed). */
  void release() {
    if (!printing) {
      printing = true;
      begin.run();
      held.forEach(print);
      held.clear();
    }
  }

  private boolean probeFoundNoChange() {
    try {
      return ExactStream.changedFiles(probe.get()) == 0;
    } catch (InterruptedException | ExecutionException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return false;
    }
  }
}

