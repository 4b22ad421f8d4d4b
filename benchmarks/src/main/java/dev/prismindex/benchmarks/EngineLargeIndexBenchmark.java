package dev.prismindex.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.prismindex.engine.EngineStatus;
import dev.prismindex.engine.HybridIndex;
import dev.prismindex.engine.HybridIndexOptions;
import dev.prismindex.engine.IndexProgress;
import dev.prismindex.engine.IndexRunStats;
import dev.prismindex.engine.RefreshOptions;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Timeout;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Memory of a large cold lexical index (no embeddings): the generated corpus with 5-14 methods per
 * class ({@link EngineCorpus#generate(Path, int, int)}; 90 000 files are about 520 MB), written
 * once under {@code java.io.tmpdir/prism-engine-large-<files>} and reused (delete it when done),
 * indexed from an empty home in a JVM limited to {@code -Xmx512m}. One shot per fork; after it the
 * harness prints the files, chunks, index size, and the heap: the <b>live heap</b>, measured by a
 * forced full collection ({@link System#gc()}, from the progress listener) each time another tenth
 * of the files is done (the last one when the commit starts, the manifest complete), its largest value and the values at each tenth; the largest heap in use
 * after any collection (live data plus garbage G1 had not yet collected: it follows G1's heap
 * sizing, not the run's needs); the number of collections; and the heap after a full collection at
 * the end (index still open); when all files are done it also prints the live heap's largest
 * classes (a class histogram). The forced collections add well under a second to the time.
 * Comparing {@code files} = 10 000, 45 000 and 90 000 shows how memory grows with the corpus.
 *
 * <p>Command (about 30 minutes for the three sizes on the shared two cores, plus the corpus
 * generation; the 90 000-file shot alone takes 15-20 minutes, hence the 90-minute timeout):
 *
 * <pre>{@code java -jar benchmarks/target/benchmarks.jar EngineLargeIndexBenchmark -rf json -rff engine-large.json}</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseG1GC"})
@Timeout(time = 90, timeUnit = TimeUnit.MINUTES)
public class EngineLargeIndexBenchmark {

  @Param({"10000", "45000", "90000"})
  public int files;

  private Path base;
  private Path corpus;
  private Path home;
  private long sourceBytes;
  private final AtomicLong maxAfterGc = new AtomicLong();
  private final AtomicInteger collections = new AtomicInteger();
  private final AtomicInteger fullCollections = new AtomicInteger();
  private final List<Runnable> unregister = new ArrayList<>();
  private final List<Long> liveAtTenths = new ArrayList<>();
  private int nextTenth;

  @Setup(Level.Trial)
  public void prepare() throws IOException {
    base = Path.of(System.getProperty("java.io.tmpdir"), "prism-engine-large-" + files);
    corpus = base.resolve("corpus");
    Path done = base.resolve("corpus.done");
    if (!Files.exists(done)) {
      Trees.delete(base);
      EngineCorpus.generate(corpus, files, 5);
      EngineFixture.age(corpus);
      Files.writeString(done, "ok\n");
    }
    sourceBytes = EngineCorpus.size(corpus);
    home = base.resolve("index");
    Trees.delete(home);
    HeapMeter.usedAfterGc();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        NotificationListener listener = this::onGc;
        emitter.addNotificationListener(listener, null, null);
        unregister.add(() -> {
          try {
            emitter.removeNotificationListener(listener);
          } catch (ListenerNotFoundException ignored) {
            // already gone
          }
        });
      }
    }
  }

  private void onGc(Notification n, Object handback) {
    if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    long used = 0;
    for (MemoryUsage u : info.getGcInfo().getMemoryUsageAfterGc().values()) {
      used += u.getUsed();
    }
    collections.incrementAndGet();
    if (info.getGcName().contains("Old")) {
      fullCollections.incrementAndGet();
    }
    maxAfterGc.accumulateAndGet(used, Math::max);
  }

  /** A full collection, and the heap in use after it, each time another tenth of the files is done. */
  private void checkpoint(IndexProgress progress) {
    IndexProgress.Phase phase = progress.phase();
    if (phase != IndexProgress.Phase.INDEXING && phase != IndexProgress.Phase.COMMITTING
        || progress.filesTotal() == 0) {
      return;
    }
    while (nextTenth < 10 && progress.filesDone() * 10L >= (nextTenth + 1L) * progress.filesTotal()) {
      nextTenth++;
      System.gc();
      liveAtTenths.add(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
      if (nextTenth == 10) {
        printHistogram();
      }
    }
  }

  /** The live heap's largest classes (as {@code jcmd PID GC.class_histogram} prints them). */
  private static void printHistogram() {
    try {
      Object text = ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
      String[] lines = text.toString().split("\n");
      System.out.println("\nlive heap when all files are done, largest classes:");
      for (int i = 0; i < Math.min(lines.length, 17); i++) {
        System.out.println(lines[i]);
      }
      System.out.println(lines[lines.length - 1]);
    } catch (JMException e) {
      System.out.println("no class histogram: " + e);
    }
  }

  @TearDown(Level.Trial)
  public void clean() {
    unregister.forEach(Runnable::run);
    Trees.delete(home);
  }

  @Benchmark
  public long coldIndex() throws IOException {
    long t0 = System.nanoTime();
    try (HybridIndex index = HybridIndex.open(
        HybridIndexOptions.builder(corpus).home(home).semantic(false).build())) {
      IndexRunStats stats = index.refresh(RefreshOptions.FULL.withProgress(this::checkpoint));
      double seconds = (System.nanoTime() - t0) / 1e9;
      long runMax = maxAfterGc.get();
      int runCollections = collections.get();
      int runFull = fullCollections.get();
      long retained = HeapMeter.usedAfterGc();
      EngineStatus status = index.engineStatus();
      long liveMax = liveAtTenths.stream().mapToLong(Long::longValue).max().orElse(-1);
      StringBuilder tenths = new StringBuilder();
      for (long live : liveAtTenths) {
        tenths.append(String.format(Locale.ROOT, " %.0f", live / 1048576.0));
      }
      System.out.printf(Locale.ROOT, "%n%d files (%.1f MB), %d chunks in %.1f s; index %.1f MB "
              + "= %.2f x source; max heap %.0f MiB; live heap (full GC at each tenth of the "
              + "files) max %.1f MiB, per tenth (MiB):%s; heap after any GC: max %.1f MiB (%d "
              + "collections, %d full); after a full GC at the end %.1f MiB%n",
          status.files(), sourceBytes / 1e6, stats.chunksWritten(), seconds,
          status.sizeOnDiskBytes() / 1e6, status.sizeOnDiskBytes() / (double) sourceBytes,
          Runtime.getRuntime().maxMemory() / 1048576.0, liveMax / 1048576.0, tenths, runMax
              / 1048576.0, runCollections, runFull, retained / 1048576.0);
      return stats.chunksWritten();
    }
  }
}
