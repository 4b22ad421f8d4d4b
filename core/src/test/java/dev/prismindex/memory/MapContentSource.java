package dev.prismindex.memory;

import dev.prismindex.index.InMemoryIndex.ContentSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** A content source over a map, for tests: absent paths read as {@code null}; some paths fail. */
final class MapContentSource implements ContentSource {

  final Map<String, byte[]> files = new ConcurrentHashMap<>();
  final Map<String, Boolean> failing = new ConcurrentHashMap<>();
  volatile int reads;

  MapContentSource put(String path, String content) {
    files.put(path, content.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  @Override
  public byte @Nullable [] read(String path, long maxBytes) throws IOException {
    reads++;
    if (failing.containsKey(path)) {
      throw new IOException("disk on fire: " + path);
    }
    return files.get(path);
  }
}
