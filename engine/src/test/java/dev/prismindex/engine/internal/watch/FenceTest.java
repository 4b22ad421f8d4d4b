package dev.prismindex.engine.internal.watch;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fence's passes, against the JDK's watch service directly. */
class FenceTest {

  @TempDir Path home;

  @Test
  void aPassWaitingWhileTheDirectoryIsRegisteredAgainMakesANewFileAndPasses() throws Exception {
    Fence fence = new Fence(home);
    assertThat(fence.prepare()).isTrue();
    // The first watcher never hands out its events, then is closed with them: what a
    // re-registration of the tree does to events it had not delivered yet.
    WatchService first = home.getFileSystem().newWatchService();
    fence.directory().register(first, ENTRY_CREATE);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    CompletableFuture<Fence.Passage> pass = CompletableFuture.supplyAsync(() -> {
      try {
        return fence.pass(deadline);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(300); // the pass has made its file and waits for its event
    assertThat(pass).isNotDone();

    try (WatchService second = home.getFileSystem().newWatchService()) {
      fence.directory().register(second, ENTRY_CREATE);
      first.close();
      fence.registered();
      Thread delivery = new Thread(() -> deliver(second, fence), "fence-test-delivery");
      delivery.setDaemon(true);
      delivery.start();
      assertThat(pass.get(10, TimeUnit.SECONDS)).isEqualTo(Fence.Passage.PASSED);
    }
  }

  @Test
  void aPassWhoseEventNeverComesIsLate() throws Exception {
    Fence fence = new Fence(home);
    assertThat(fence.prepare()).isTrue();
    try (WatchService silent = home.getFileSystem().newWatchService()) {
      fence.directory().register(silent, ENTRY_CREATE);
      assertThat(fence.pass(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300)))
          .isEqualTo(Fence.Passage.LATE);
    }
  }

  private static void deliver(WatchService service, Fence fence) {
    try {
      while (true) {
        WatchKey key = service.take();
        for (WatchEvent<?> event : key.pollEvents()) {
          if (event.context() instanceof Path name) {
            fence.offer(((Path) key.watchable()).resolve(name));
          }
        }
        key.reset();
      }
    } catch (InterruptedException | java.nio.file.ClosedWatchServiceException e) {
      // the test is over
    }
  }
}
