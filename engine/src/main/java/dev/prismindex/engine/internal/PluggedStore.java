package dev.prismindex.engine.internal;

import dev.prismindex.engine.CorruptIndexException;
import dev.prismindex.engine.spi.CommitRecord;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.SkippedFile;
import dev.prismindex.engine.spi.Store;
import dev.prismindex.engine.spi.StoreHealth;
import dev.prismindex.engine.spi.StoreReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The kernel's access to a plugged {@link Store}. */
public final class PluggedStore implements StoreAccess {

  private final Store store;

  public PluggedStore(Store store) {
    this.store = store;
  }

  /** The store. */
  public Store store() {
    return store;
  }

  @Override
  public <T> T read(ReaderFunction<T> fn, T empty) throws IOException {
    try (StoreReader r = store.reader()) {
      return r.commit().values().isEmpty() ? empty : fn.apply(r);
    }
  }

  @Override
  public @Nullable CommitRecord record() throws IOException {
    return store.record();
  }

  @Override
  public Map<String, FileEntry> manifest() throws IOException {
    return new HashMap<>(store.files(null));
  }

  @Override
  public Map<String, SkippedFile> skipped() throws IOException {
    return store.skipped(null);
  }

  @Override
  public StoreHealth health() throws IOException {
    return store.health();
  }

  /** A plugged store is asked when it is verified, not before every search. */
  @Override
  public void checkUndamaged() {}

  @Override
  public void verify(boolean thorough) throws IOException {
    StoreHealth h = store.health();
    if (h.condition() == StoreHealth.Condition.DAMAGED) {
      throw new CorruptIndexException(store.describe(),
          h.reason() == null ? "the store reports it damaged" : h.reason());
    }
  }

  @Override
  public boolean holdsVectors(@Nullable CommitRecord record) {
    return record == null || !record.embedderId().isEmpty();
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
