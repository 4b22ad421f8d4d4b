package dev.prismindex.engine.internal.run;

import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.codecs.Codec;
import org.eclipse.jgit.internal.JGitText;
import org.eclipse.jgit.util.SystemReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide set-up that the first walk of a git repository and the first index open pay,
 * done ahead, on a thread of its own, by a short-lived process ({@code HybridIndex.warmUp}): git's
 * system and user configuration (JGit finds the system file by running {@code git --version} and
 * {@code git config --system --show-origin}), JGit's messages, the security provider that makes
 * JGit's SHA-1, Lucene's constants (read through the management beans) and its codecs (found
 * through the service loader). Each is what the first use would compute, kept by the JDK, JGit
 * (whose configuration is re-read when its file changes) or Lucene, so nothing a walk or a search
 * answers depends on whether this ran.
 */
public final class WarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(WarmUp.class);
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private WarmUp() {}

  /**
   * Runs the set-up on the calling thread the first time; returns at once after that.
   *
   * @return whether this call ran it
   */
  public static boolean once() {
    return once(STARTED);
  }

  /** {@link #once()} against {@code started}, the flag of the calls it counts. */
  static boolean once(AtomicBoolean started) {
    if (!started.compareAndSet(false, true)) {
      return false;
    }
    run();
    return true;
  }

  /** The set-up itself, on the calling thread (each step on its own: one failing skips it only). */
  static void run() {
    try {
      SystemReader.getInstance().getUserConfig();
      JGitText.get(); // JGit's messages, which reading git's index loads
    } catch (Exception | LinkageError e) {
      LOG.debug("warm-up: git configuration not read ahead: {}", e.toString());
    }
    try {
      MessageDigest.getInstance("SHA-1");
    } catch (Exception e) {
      LOG.debug("warm-up: no SHA-1 ahead: {}", e.toString());
    }
    try {
      Class.forName("org.apache.lucene.util.Constants", true, WarmUp.class.getClassLoader());
      Codec.getDefault(); // the codecs of the class path, found once (NamedSPILoader)
    } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
      LOG.debug("warm-up: Lucene not initialised ahead: {}", e.toString());
    }
  }
}
