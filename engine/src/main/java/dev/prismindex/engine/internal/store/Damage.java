package dev.prismindex.engine.internal.store;

import dev.prismindex.engine.CorruptIndexException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.CodecReader;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What an {@link IndexStore} knows of damage to its index, shared through its damage file. */
final class Damage {

  private static final Logger LOG = LoggerFactory.getLogger(IndexStore.class);

  private final Path home;
  /**
   * What a read found damaged, if one did (in this process, or, from its {@link
   * IndexFiles#DAMAGE_FILE}, in another); cleared by a verification that passes or a rebuild.
   */
  private volatile @Nullable Throwable damage;
  /** Whether {@link #damage} is in the damage file too (not when the disk refused to write it). */
  private volatile boolean recorded;

  /** The damage of the index in {@code home}: none, or what an earlier run recorded. */
  Damage(Path home) {
    this.home = home;
    this.damage = recordedDamage();
    this.recorded = damage != null;
  }

  /**
   * The engine's exception for damage found by {@code cause}; marks the store damaged, here and, in
   * its {@link IndexFiles#DAMAGE_FILE}, for every later run of any process.
   */
  CorruptIndexException corrupt(Throwable cause) {
    damage = cause;
    recorded = false;
    Path file = home.resolve(IndexFiles.DAMAGE_FILE);
    try {
      Files.writeString(file, firstLine(cause) + "\n", StandardCharsets.UTF_8);
      recorded = true;
    } catch (IOException | RuntimeException e) {
      // A read-only or full disk: this process knows, and the next run finds it again.
      LOG.debug("could not record the damage in {}: {}", file, e.toString());
    }
    return new CorruptIndexException(home, cause);
  }

  private static String firstLine(Throwable cause) {
    String m = String.valueOf(cause.getMessage()).strip();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl).strip();
  }

  /** The damage an earlier run recorded ({@link IndexFiles#DAMAGE_FILE}), or null. */
  private @Nullable Throwable recordedDamage() {
    Path file = home.resolve(IndexFiles.DAMAGE_FILE);
    try {
      String found = Files.readString(file, StandardCharsets.UTF_8).strip();
      return new IOException("found by an earlier run: " + (found.isEmpty() ? "damage" : found));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      return new IOException("found by an earlier run (" + file + ": " + e + ")");
    }
  }

  /** Whether damage was found and not repaired since (see {@link IndexStore#damaged()}). */
  boolean damaged() {
    if (damage != null && recorded && !Files.exists(home.resolve(IndexFiles.DAMAGE_FILE))) {
      damage = null; // another process repaired it
    }
    return damage != null;
  }

  /** The damage found and not repaired since, or null. */
  @Nullable Throwable found() {
    return damaged() ? damage : null;
  }

  /** Throws the damage found, if any (see {@link IndexStore#checkUndamaged()}). */
  void checkUndamaged() throws CorruptIndexException {
    Throwable found = found();
    if (found != null) {
      throw new CorruptIndexException(home, found);
    }
  }

  /** Forgets the damage and removes its file (see {@link IndexStore#repaired()}). */
  void repaired() {
    damage = null;
    try {
      Files.deleteIfExists(home.resolve(IndexFiles.DAMAGE_FILE));
    } catch (IOException e) {
      LOG.debug("could not remove {}: {}", home.resolve(IndexFiles.DAMAGE_FILE), e.toString());
    }
  }

  /**
   * Lucene's {@link CheckIndex} tests of one segment (field infos, norms, postings, stored fields,
   * term vectors, doc values, points, vectors); a failure is thrown as Lucene's corruption.
   */
  static void checkSegment(CodecReader c) throws IOException {
    failed(CheckIndex.testFieldInfos(c, null, true).error);
    failed(CheckIndex.testLiveDocs(c, null, true).error);
    failed(CheckIndex.testFieldNorms(c, null, true).error);
    failed(CheckIndex.testPostings(c, null, false, false, true).error);
    failed(CheckIndex.testStoredFields(c, null, true).error);
    failed(CheckIndex.testTermVectors(c, null, false, false, true).error);
    failed(CheckIndex.testDocValues(c, null, true).error);
    failed(CheckIndex.testPoints(c, null, true).error);
    failed(CheckIndex.testVectors(c, null, true).error);
  }

  private static void failed(@Nullable Throwable error) throws IOException {
    if (error != null) {
      throw new org.apache.lucene.index.CorruptIndexException(String.valueOf(error.getMessage()),
          "CheckIndex", error);
    }
  }

  /**
   * Whether the first frame of {@code e} outside the JDK is Lucene's: a decoder failing on bad
   * bytes ({@code EOFException}, "Invalid vInt", {@code ArrayIndexOutOfBoundsException}, ...), as
   * opposed to a caller's error, an interrupted run or a file of the working tree.
   */
  static boolean thrownByLucene(Throwable e) {
    for (StackTraceElement f : e.getStackTrace()) {
      String c = f.getClassName();
      if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) {
        return c.startsWith("org.apache.lucene.");
      }
    }
    return false;
  }
}
