package dev.prismindex.cli.command;

import dev.prismindex.cli.output.ExactPrinter;
import dev.prismindex.cli.output.Results.Freshness;
import dev.prismindex.cli.output.Results.SearchAnswer;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.Staleness;
import dev.prismindex.repository.SearchMode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/** An exact search from an index printed as it runs, with the freshness probe run beside it. */
final class ExactStream {

  private ExactStream() {
  }

  /**
   * An exact search without a watch, the freshness probe (a walk of the tree with stat calls) run on
   * a second thread while the search runs. Hits found before the probe answers are held back; once
   * it finds no file changed they are printed and the rest stream as found (an exact search verifies
   * every candidate against the working tree, and the index matches the tree), so only the hits of
   * the probe's time are ever held. When it finds a change, the hits are dropped, the change is
   * caught up from the probe's answer ({@link IndexCatchUp#afterProbe}: re-indexed, or refused),
   * and the search runs again after it; a search that failed is reported only after the probe, as
   * when they run in turn.
   */
  static SearchAnswer probeWhileSearching(IndexAccess.Lease lease,
      SearchRequest request, SearchMode mode, ExactPrinter out) throws CliFailure, IOException {
    HybridIndex index = lease.index();
    FutureTask<Staleness> probe = new FutureTask<>(index::staleness);
    Thread prober = new Thread(probe, "prism-index-probe");
    prober.setDaemon(true);
    prober.start();
    Map<String, Integer> notIndexed = new java.util.LinkedHashMap<>(); // read in the try below
    HeldHits hits = new HeldHits(probe,
        () -> out.begin(mode.wireName(), Freshness.CLEAN, Map.of(), notIndexed), out::hit);
    long started = System.nanoTime();
    dev.prismindex.engine.SearchResult r = null;
    Throwable failed = null;
    try {
      notIndexed.putAll(index.notIndexed());
      r = index.stream(request.query(), request.opts(mode), hits::accept);
    } catch (IOException | RuntimeException | Error e) {
      failed = e;
    }
    long tookMs = LocalBackend.ms(System.nanoTime() - started);
    Staleness staleness = awaitProbe(probe);
    if (changedFiles(staleness) > 0) {
      return streamed(index, request, mode,
          IndexCatchUp.afterProbe(lease, request, mode, staleness), out);
    }
    if (failed != null) {
      rethrow(failed);
    }
    hits.release();
    return new SearchAnswer(request.query(), false, null, r, Freshness.CLEAN, tookMs,
        exactNotes(r));
  }

  /** The files the probe found added, modified or deleted. */
  static int changedFiles(Staleness staleness) {
    return staleness.added() + staleness.modified() + staleness.deleted();
  }

  /** An exact search printed as it runs, after the freshness it reports. */
  static SearchAnswer streamed(HybridIndex index, SearchRequest request, SearchMode mode,
      Freshness freshness, ExactPrinter out) throws IOException {
    out.begin(mode.wireName(), freshness, Map.of(), index.notIndexed());
    long started = System.nanoTime();
    dev.prismindex.engine.SearchResult r =
        index.stream(request.query(), request.opts(mode), out::hit);
    return new SearchAnswer(request.query(), false, null, r, freshness,
        LocalBackend.ms(System.nanoTime() - started), exactNotes(r));
  }

  /** Throws an I/O, runtime or error throwable as it is; returns for any other. */
  private static void rethrow(Throwable t) throws IOException {
    if (t instanceof IOException io) {
      throw io;
    } else if (t instanceof RuntimeException re) {
      throw re;
    } else if (t instanceof Error err) {
      throw err;
    }
  }

  /** The probe's answer, waiting for it; its failure rethrown as it was thrown. */
  private static Staleness awaitProbe(FutureTask<Staleness> probe) throws IOException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return probe.get();
        } catch (InterruptedException e) {
          interrupted = true; // the probe reads the index the lease closes: wait for it
        } catch (ExecutionException e) {
          rethrow(e.getCause());
          throw new IOException(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The notes of an exact search from an index: a pattern the index could not narrow down. */
  static List<String> exactNotes(dev.prismindex.engine.SearchResult r) {
    return r.everyFileRead() ? List.of("the pattern has no trigram the index can use (a class of"
        + " many characters, pieces shorter than three, or only trigrams too common to index),"
        + " so every indexed file was read")
        : List.of();
  }
}
