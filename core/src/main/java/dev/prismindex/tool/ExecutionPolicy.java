package dev.prismindex.tool;

/**
 * A host's veto over a tool call, consulted after the arguments are validated and before any work.
 *
 * <p>A policy answers {@link PolicyDecision#allow()} or {@link PolicyDecision#deny(String)}; a denial
 * becomes an error result whose text is the policy's reason. A policy that throws, or returns
 * {@code null}, also denies (fail closed). Policies may be called from several threads at once.
 */
@FunctionalInterface
public interface ExecutionPolicy {

  /**
   * Decides whether the described call may run.
   *
   * @param request what the tool is about to do
   * @return the decision; never {@code null} (a {@code null} answer is treated as a denial)
   */
  PolicyDecision evaluate(PolicyRequest request);
}
