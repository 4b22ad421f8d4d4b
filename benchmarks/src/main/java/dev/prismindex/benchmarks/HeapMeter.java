package dev.prismindex.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Heap in use after garbage collection, made stable: {@link System#gc()} (a full, stop-the-world
 * collection with the JDK's default G1 unless {@code -XX:+ExplicitGCInvokesConcurrent} is set) is
 * repeated until two consecutive readings of {@link MemoryMXBean#getHeapMemoryUsage()} differ by
 * less than 64 KiB (at most 20 rounds), and the last reading is returned. The retained size of an
 * object graph is then the difference of two such readings, one with the graph reachable and one
 * without, taken in the same JVM.
 */
public final class HeapMeter {

  private static final long STABLE_BYTES = 64 * 1024;

  private HeapMeter() {}

  /** Heap bytes in use once garbage collection no longer changes it. */
  public static long usedAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long previous = -1;
    for (int round = 0; round < 20; round++) {
      System.gc();
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      long used = memory.getHeapMemoryUsage().getUsed();
      if (previous >= 0 && Math.abs(used - previous) < STABLE_BYTES) {
        return used;
      }
      previous = used;
    }
    return previous;
  }

  /** The deep size of {@code root} by a heap walk (JOL), or -1 when the walk is not possible. */
  public static long walkedBytes(Object root) {
    try {
      return org.openjdk.jol.info.GraphLayout.parseInstance(root).totalSize();
    } catch (RuntimeException | LinkageError unavailable) {
      return -1;
    }
  }
}
