package dev.prismindex.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.prismindex.index.IndexFileChange;
import dev.prismindex.index.IndexFileChangeKind;
import dev.prismindex.index.IndexQuery;
import dev.prismindex.index.IndexQueryResult;
import dev.prismindex.index.IndexSearchHit;
import dev.prismindex.index.IndexUpdateRequest;
import dev.prismindex.repository.AbortSignal;
import dev.prismindex.repository.SearchMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches that overlap updates see one whole state. A writer alternates two full states of the
 * tree in single batches: state A has files {@code f0..f199} saying {@code state-A <i>}; state B
 * rewrites them to {@code state-B <i>}, deletes the odd ones and adds {@code g0..g49}. Readers query
 * {@code state-} and {@code state-B} without pause; every answer must be exactly state A's or exactly
 * state B's (same count, one letter), never a mix. Bounded by a number of writer rounds, not by time.
 */
class ConcurrentUpdateSearchTest {

  @TempDir
  Path root;

  @Test
  void searchesSeeAConsistentSnapshotWhileUpdatesRun() throws Exception {
    MapContentSource source = new MapContentSource();
    InMemoryIndexBackend backend =
        InMemoryIndexBackend.builder(root).contentSource(source).withoutSemantic().build();
    List<IndexFileChange> toA = new ArrayList<>();
    List<IndexFileChange> toB = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      toA.add(IndexFileChange.of("f" + i, IndexFileChangeKind.ADD));
      toB.add(IndexFileChange.of("f" + i,
          i % 2 == 1 ? IndexFileChangeKind.DELETE : IndexFileChangeKind.EDIT));
    }
    for (int i = 0; i < 50; i++) {
      toA.add(IndexFileChange.of("g" + i, IndexFileChangeKind.DELETE));
      toB.add(IndexFileChange.of("g" + i, IndexFileChangeKind.ADD));
    }
    setState(source, 'A');
    backend.update(IndexUpdateRequest.of("A0", toA));

    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    AtomicInteger answers = new AtomicInteger();
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      Thread reader = new Thread(() -> {
        while (!done.get() && problems.isEmpty()) {
          check(backend, problems);
          answers.incrementAndGet();
        }
      }, "reader-" + r);
      reader.start();
      readers.add(reader);
    }
    for (int round = 1; round <= 60; round++) {
      boolean b = round % 2 == 1;
      setState(source, b ? 'B' : 'A');
      backend.update(IndexUpdateRequest.of((b ? "B" : "A") + round, b ? toB : toA));
    }
    done.set(true);
    for (Thread reader : readers) {
      reader.join(60_000);
    }
    assertThat(problems).isEmpty();
    assertThat(answers.get()).isPositive();
    assertThat(backend.stats().updates()).isEqualTo(61);
  }

  private static void setState(MapContentSource source, char state) {
    source.files.clear();
    for (int i = 0; i < 200; i++) {
      if (state == 'A' || i % 2 == 0) {
        source.put("f" + i, "line zero\nstate-" + state + " " + i + "\n");
      }
    }
    if (state == 'B') {
      for (int i = 0; i < 50; i++) {
        source.put("g" + i, "state-B g" + i + "\n");
      }
    }
  }

  private static void check(InMemoryIndexBackend backend, ConcurrentLinkedQueue<String> problems) {
    IndexQueryResult all = backend.search(new IndexQuery("state-", SearchMode.INDEXED_LITERAL, null,
        10_000, false, AbortSignal.create(), 10_000));
    char letter = 0;
    for (IndexSearchHit hit : all.hits()) {
      char seen = hit.snippet().charAt(6);
      if (letter == 0) {
        letter = seen;
      } else if (seen != letter) {
        problems.add("mixed states in one answer: " + hit);
        return;
      }
    }
    int expected = letter == 'A' ? 200 : 150;
    if (all.hits().size() != expected) {
      problems.add("state " + letter + " with " + all.hits().size() + " hits");
    }
    IndexQueryResult b = backend.search(new IndexQuery("STATE-B", SearchMode.INDEXED_LITERAL, null,
        10_000, true, AbortSignal.create(), 10_000));
    if (!b.hits().isEmpty()) {
      problems.add("case-sensitive query matched lower-case text");
    }
  }
}
