package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.internal.analysis.ChunkTerms;
import dev.prismindex.engine.internal.analysis.GramSet;
import dev.prismindex.engine.spi.Chunk;
import dev.prismindex.engine.spi.DocumentSink;
import dev.prismindex.engine.spi.FileEntry;
import dev.prismindex.engine.spi.FileGrams;
import dev.prismindex.engine.spi.SkippedFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.util.CloseableThreadLocal;
import org.jspecify.annotations.Nullable;

/** The {@link DocumentSink} of the local index: {@link Documents} into an {@link IndexWriter}. */
public final class LuceneSink implements DocumentSink {

  private final IndexWriter writer;
  /**
   * Each worker's analysis (it remembers what identifiers split into, so a thread keeps one),
   * released with the sink: Lucene's thread-local, which a host application's threads do not keep
   * alive.
   */
  private final CloseableThreadLocal<ChunkTerms> terms = new CloseableThreadLocal<>() {
    @Override
    protected ChunkTerms initialValue() {
      return new ChunkTerms();
    }
  };

  public LuceneSink(IndexWriter writer) {
    this.writer = writer;
  }

  @Override
  public void putFile(FileEntry entry, FileGrams grams, List<Chunk> chunks,
      @Nullable List<byte[]> keys, @Nullable FileEntry previous, boolean hadSkipRecord)
      throws IOException {
    List<Document> docs = new ArrayList<>(chunks.size() + 1);
    docs.add(Documents.file(entry, gramSet(grams)));
    docs.addAll(Documents.chunks(terms.get(), entry.path(), entry.language(), chunks, keys));
    if (previous != null || hadSkipRecord) {
      writer.updateDocuments(new Term(Schema.PATH, entry.path()), docs);
    } else {
      writer.addDocuments(docs); // no document has the path: nothing to delete
    }
  }

  @Override
  public void restat(FileEntry entry, FileGrams grams) throws IOException {
    writer.updateDocument(new Term(Schema.FILE_KEY, entry.path()),
        Documents.file(entry, gramSet(grams)));
  }

  /** The kernel's pipeline gives its own gram sets, whose packed form the gram index stores. */
  private static GramSet gramSet(FileGrams grams) {
    return (GramSet) grams;
  }

  @Override
  public void putSkipped(SkippedFile record, @Nullable FileEntry previous, boolean hadSkipRecord)
      throws IOException {
    Document d = Documents.skipped(record);
    if (previous != null) {
      writer.updateDocuments(new Term(Schema.PATH, record.path()), List.of(d));
    } else if (hadSkipRecord) {
      writer.updateDocument(new Term(Schema.SKIP_KEY, record.path()), d);
    } else {
      writer.addDocument(d);
    }
  }

  @Override
  public void deletePath(FileEntry previous) throws IOException {
    writer.deleteDocuments(new Term(Schema.PATH, previous.path()));
  }

  @Override
  public void deleteSkip(String path) throws IOException {
    writer.deleteDocuments(new Term(Schema.SKIP_KEY, path));
  }

  /** Flushes the writer's per-thread buffers one by one, the largest first, until none is left. */
  @Override
  public void flush() throws IOException {
    while (writer.flushNextBuffer()) {
      // another buffer written as a segment
    }
  }
}
