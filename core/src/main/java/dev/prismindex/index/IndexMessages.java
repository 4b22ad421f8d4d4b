package dev.prismindex.index;

/**
 * Every fixed message of the index seam, in one place so the implementation cannot drift from the
 * table in {@link IndexedRepositoryOperations}. Messages marked "reference" are kept exactly as the
 * TypeScript reference writes them; the others are ours (documented in that table).
 */
final class IndexMessages {

  private IndexMessages() {}

  // --- search: routing (reference)
  static String modeNotEnabled(String wireMode) {
    return "search mode " + wireMode + " is not enabled on this composite";
  }

  static final String SEMANTIC_UNSUPPORTED = "semantic search is not supported by this index backend";

  /** Ours: a mode the backend's capabilities do not declare (lexical, hybrid). */
  static String modeUnsupported(String wireMode) {
    return "search mode " + wireMode + " is not supported by this index backend";
  }

  // --- search: freshness (reference, except that the STALE state is refused)
  static final String STATUS_FAILED = "index status failed";
  static final String UNKNOWN_STATE = "index reported an unknown state";
  static final String STATE_FAILED = "index is failed; no search is served";
  static final String STATE_EMPTY = "index has no data; update it before querying";
  static final String STATE_BUILDING = "index is still building";
  static final String STALE = "index is stale; refresh it before querying";
  static final String NO_TIMESTAMP = "index does not attest a freshness timestamp";
  static final String NO_REVISION = "index does not attest a source revision";

  // --- search: the call (reference)
  static final String QUERY_FAILED = "index query failed";
  static final String QUERY_ABORTED = "index query aborted";
  static final String QUERY_TIMED_OUT = "index query timed out";
  static final String QUERY_EXCEEDED_DEADLINE = "index query exceeded the deadline";

  // --- hits and paths (reference, except where noted)
  static final String INVALID_SCOPE = "requested path scope is invalid";
  static final String MALFORMED_RESULT = "index reported a malformed result";
  static final String INVALID_PATH = "index reported an invalid path";
  static final String PATH_OUTSIDE_REPOSITORY = "index reported a path outside the repository";
  static final String PATH_OUTSIDE_ROOT = "index reported a path outside the repository root";
  static final String OUTSIDE_SCOPE = "index reported a result outside the requested path scope";
  static final String INVALID_SCORE = "index reported an invalid score";
  /** Ours: hits carry locations (section 0). */
  static final String INVALID_LOCATION = "index reported an invalid location";

  // --- facade (reference, except where noted)
  static final String REVISION_BOUND = "sourceRevision is required and bounded";

  static String identityBound(String name) {
    return name + " exceeds the identity bound";
  }

  /**
   * An {@code operation} ({@code update}, {@code remove}) over its cap of {@code n} of a {@code
   * unit} ({@code change}, {@code byte}, {@code path}): {@code update exceeds the 100 change cap}.
   */
  static String cap(String operation, long n, String unit) {
    return operation + " exceeds the " + n + " " + unit + " cap";
  }

  static final String CHANGE_BYTES = "change bytes must be a non-negative finite number";
  /** Ours: a change without a kind. */
  static final String INVALID_CHANGE_KIND = "index reported an invalid change kind";
  static final String UPDATE_FAILED = "index update failed";
  static final String REMOVE_FAILED = "index remove failed";
  static final String DISPOSE_FAILED = "index dispose failed";
  /** Ours: every index operation after {@link IndexFacade#dispose()}. */
  static final String DISPOSED = "index is disposed";
}
