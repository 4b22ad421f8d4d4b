package dev.prismindex.engine.internal.codec;

import java.io.IOException;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.IOUtils;

/**
 * The two files a segment has for one of the engine's own formats: a meta file, read whole when the
 * segment opens, and a data file, read as asked. Both carry Lucene's index header (codec name,
 * version, segment id and suffix) and a checksummed footer, so Lucene's checks cover them.
 *
 * @param metaExtension the meta file's extension
 * @param metaCodec the codec name of the meta file's header
 * @param dataExtension the data file's extension
 * @param dataCodec the codec name of the data file's header
 * @param version the one version written and read
 */
record SegmentFiles(String metaExtension, String metaCodec, String dataExtension,
    String dataCodec, int version) {

  /** The meta and data files of a segment being written, their headers written. */
  record Outputs(IndexOutput meta, IndexOutput data) {}

  /** Reads a meta file once its header is checked; its footer is checked after. */
  @FunctionalInterface
  interface MetaReader {
    void read(ChecksumIndexInput meta) throws IOException;
  }

  /** Creates both files of the segment {@code state} writes and writes their headers. */
  Outputs create(SegmentWriteState state) throws IOException {
    IndexOutput meta = null;
    IndexOutput data = null;
    boolean success = false;
    try {
      meta = state.directory.createOutput(IndexFileNames.segmentFileName(state.segmentInfo.name,
          state.segmentSuffix, metaExtension), state.context);
      data = state.directory.createOutput(IndexFileNames.segmentFileName(state.segmentInfo.name,
          state.segmentSuffix, dataExtension), state.context);
      CodecUtil.writeIndexHeader(meta, metaCodec, version, state.segmentInfo.getId(),
          state.segmentSuffix);
      CodecUtil.writeIndexHeader(data, dataCodec, version, state.segmentInfo.getId(),
          state.segmentSuffix);
      success = true;
      return new Outputs(meta, data);
    } finally {
      if (!success) {
        IOUtils.closeWhileHandlingException(meta, data);
      }
    }
  }

  /**
   * Reads the meta file of the segment {@code state} opens with {@code reader}, between its checked
   * header and footer (a failure of the reader is reported with the footer's verdict).
   */
  void readMeta(SegmentReadState state, MetaReader reader) throws IOException {
    String name = IndexFileNames.segmentFileName(state.segmentInfo.name, state.segmentSuffix,
        metaExtension);
    try (ChecksumIndexInput meta = state.directory.openChecksumInput(name, state.context)) {
      Throwable failure = null;
      try {
        CodecUtil.checkIndexHeader(meta, metaCodec, version, version, state.segmentInfo.getId(),
            state.segmentSuffix);
        reader.read(meta);
      } catch (Throwable t) {
        failure = t;
      } finally {
        CodecUtil.checkFooter(meta, failure);
      }
    }
  }

  /**
   * Opens the data file of the segment {@code state} opens, for random access: its header checked,
   * its footer's checksum read (the whole file is checked by {@link CodecUtil#checksumEntireFile}).
   */
  IndexInput openData(SegmentReadState state) throws IOException {
    String name = IndexFileNames.segmentFileName(state.segmentInfo.name, state.segmentSuffix,
        dataExtension);
    IndexInput in = state.directory.openInput(name, state.context.withRandomAccess());
    boolean success = false;
    try {
      CodecUtil.checkIndexHeader(in, dataCodec, version, version, state.segmentInfo.getId(),
          state.segmentSuffix);
      CodecUtil.retrieveChecksum(in);
      success = true;
      return in;
    } finally {
      if (!success) {
        IOUtils.closeWhileHandlingException(in);
      }
    }
  }
}
