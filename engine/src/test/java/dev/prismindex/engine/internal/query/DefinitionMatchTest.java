package dev.prismindex.engine.internal.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.prismindex.engine.internal.analysis.CodeAnalyzer;
import dev.prismindex.engine.internal.semantic.HybridFuser;
import dev.prismindex.engine.spi.ChunkDoc;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DefinitionMatchTest {

  private static final CodeAnalyzer ANALYZER = new CodeAnalyzer();

  /** No file: a type by its capitalised name alone. */
  private static final RankFeatures.FileLines NO_FILE = RankFeatures.FileLines.NONE;

  private static ChunkDoc chunk(int id, int start, int end, int line, String name,
      @Nullable String parent) {
    return new ChunkDoc("src/Queue.java#" + id, "src/Queue.java", start, end, new int[] {line},
        List.of(name), "java", parent);
  }

  private static HybridFuser.Fused fused(int doc, double score) {
    return new HybridFuser.Fused(doc, null, null, score);
  }

  private static List<Integer> order(List<HybridFuser.Fused> fused) {
    return fused.stream().map(HybridFuser.Fused::doc).toList();
  }

  private static Set<String> stems(String query) {
    return ANALYZER.proseTerms(query, 64);
  }

  /** A sentence, a documented sibling that does not do it and a Python function that does. */
  private static final String STRIP_END = "Strips whitespace from the end of a string";
  private static final List<String> SIBLING = List.of("  /**",
      "   * Strips whitespace from the end of a string.", "   */",
      "  static String trim(String s) {", "    return s;", "  }");
  private static final List<String> PYTHON = List.of("def strip_end(text):",
      "    \"\"\"Strips whitespace from", "    the end of a string.\"\"\"",
      "    return text.rstrip()");

  @Test
  void theShareOfASentencesStemsThatACandidatesCodeSays() {
    Set<String> q = stems(STRIP_END);
    List<String> target = List.of("  static String stripEnd(String str) {",
        "    // drop trailing whitespace", "    return stripWhitespace(str, END);", "  }");
    // strip, whitespac, end, string: the doc comment and the plain comment do not count.
    assertThat(SentenceShares.codeShare(SIBLING, q, ANALYZER)).isEqualTo(0.25);
    assertThat(SentenceShares.codeShare(target, q, ANALYZER)).isEqualTo(1.0);
    assertThat(SentenceShares.codeShare(PYTHON, q, ANALYZER)).isEqualTo(0.5);
    assertThat(SentenceShares.codeShare(target, Set.of(), ANALYZER)).isZero();
  }

  @Test
  void theShareOfASentencesStemsThatACandidatesDocSays() {
    Set<String> q = stems(STRIP_END);
    List<String> target = List.of("  static String stripEnd(String str) {",
        "    return stripWhitespace(str, END);", "  }");
    List<String> above = List.of("  }", "", "  // Strips whitespace from a string's end.",
        "  @Override", "  @Deprecated");
    // strip, whitespac, end, string: only the comment lines count, the block above the chunk
    // (over its annotations) too, not the code.
    assertThat(SentenceShares.said(SIBLING, List.of(), q, ANALYZER).doc()).isEqualTo(1.0);
    assertThat(SentenceShares.said(target, List.of(), q, ANALYZER).doc()).isZero();
    assertThat(SentenceShares.said(target, above, q, ANALYZER).doc()).isEqualTo(1.0);
    assertThat(SentenceShares.said(target, List.of("  // whitespace", "  int x;"), q, ANALYZER)
        .doc()).isZero();
    // A comment a blank line away is not the chunk's doc.
    assertThat(SentenceShares.said(target, List.of("  // " + STRIP_END, "", "  @Override"), q,
        ANALYZER).doc()).isZero();
    assertThat(SentenceShares.said(PYTHON, List.of(), q, ANALYZER).doc()).isEqualTo(1.0);
    // One pass gives both shares: the code's as codeShare gives it.
    assertThat(SentenceShares.said(SIBLING, List.of(), q, ANALYZER).code())
        .isEqualTo(SentenceShares.codeShare(SIBLING, q, ANALYZER));
    assertThat(SentenceShares.said(SIBLING, List.of(), Set.of(), ANALYZER))
        .isEqualTo(new SentenceShares.Said(0, 0));
  }

  @Test
  void theShareOfANamesWordsThatASentenceSays() {
    Set<String> q = stems("Resumes the stopwatch after a suspension");
    assertThat(SentenceShares.nameShare("resume", q, ANALYZER)).isEqualTo(1.0);
    assertThat(SentenceShares.nameShare("resumeAll", q, ANALYZER)).isEqualTo(0.5);
    assertThat(SentenceShares.nameShare("RESUME_TIMEOUT", q, ANALYZER)).isEqualTo(0.5);
    assertThat(SentenceShares.nameShare("start", q, ANALYZER)).isZero();
    assertThat(SentenceShares.nameShare("", q, ANALYZER)).isZero();
  }

  @Test
  void aSentencesOpeningImpliesANamesConventionalFirstWord() {
    assertThat(NameConventions.lead("Checks whether there are any previous tokens"))
        .contains("is", "has", "can");
    assertThat(NameConventions.lead("Returns true if the queue has entries that can be stolen"))
        .contains("is", "has");
    assertThat(NameConventions.lead("reports whether the route matches")).contains("is");
    assertThat(NameConventions.lead("Converts a String to a Boolean")).contains("to", "as");
    assertThat(NameConventions.lead("Creates a mutable pair of two objects"))
        .contains("new", "of", "from");
    assertThat(NameConventions.lead("Sets the name of the thread")).containsExactly("set");
    assertThat(NameConventions.lead("Obtains an instance of ZoneOffset using an offset"))
        .contains("of", "from");
    assertThat(NameConventions.lead("Returns the name of the attribute")).containsExactly("get");
    // "Returns a ..." opens docs of every kind of function: it implies nothing (measured).
    assertThat(NameConventions.lead("Returns a set with the names of all initializers")).isEmpty();
    assertThat(NameConventions.lead("Strips whitespace from the end")).isEmpty();
    assertThat(NameConventions.lead("")).isEmpty();
  }

  @Test
  void aNamesConventionalFirstWordCountsAsTheSentencesOpeningSaysIt() {
    String predicate = "Checks if an array of primitive longs is empty or null";
    Set<String> q = stems(predicate);
    Set<String> lead = NameConventions.lead(predicate);
    // is: said by the opening; to: a conversion the sentence does not open with, not said,
    // though the prose stems leave both out ("is", "to" are function words).
    assertThat(SentenceShares.nameShare("isEmpty", q, lead, ANALYZER)).isEqualTo(1.0);
    assertThat(SentenceShares.nameShare("toPrimitive", q, lead, ANALYZER)).isEqualTo(0.5);
    String whether = "Checks whether there are any previous tokens";
    assertThat(SentenceShares.nameShare("hasPrevious", stems(whether),
        NameConventions.lead(whether), ANALYZER)).isEqualTo(1.0);
    // Without an opening of the conventions the stems alone count, as before.
    Set<String> plain = stems("Strips whitespace from the end of a string");
    assertThat(SentenceShares.nameShare("toStrip", plain, Set.of(), ANALYZER)).isEqualTo(1.0);
    assertThat(SentenceShares.nameShare("getStrip", plain, Set.of(), ANALYZER)).isEqualTo(0.5);
  }

  /**
   * Two candidates in the fused order 1 then 2 (scores 1.0 and {@code second}) and the order the
   * definition prior gives them for {@code query}, with {@code file} the lines both are read from
   * (none: names only).
   */
  static Stream<Arguments> twoCandidates() {
    Map<Integer, ChunkDoc> arrays = Map.of(
        1, new ChunkDoc("src/A.java#1", "src/A.java", 1, 5, new int[] {1},
            List.of("toPrimitive"), "java", "ArrayUtils"),
        2, new ChunkDoc("src/B.java#2", "src/B.java", 1, 5, new int[] {1},
            List.of("isEmpty"), "java", "ArrayUtils"));
    List<String> clocks = List.of("class Clocks {", "  /**", "   * Obtains the current instant.",
        "   */", "  static Instant now() {", "    return now(Clock.systemUTC());", "  }",
        "  static Instant now(Clock clock) {", "    return clock.instant();", "  }", "}");
    Map<Integer, ChunkDoc> nows = Map.of(
        1, chunk(1, 2, 7, 5, "now", "Clocks"),
        2, chunk(2, 8, 10, 8, "now", "Clocks"));
    List<String> scanner = List.of("class Scanner {",
        "  public byte nextByte(int radix) {", "    return parse(next(), radix);", "  }",
        "  public boolean hasNextByte(int radix) {", "    return test(next(), radix);", "  }",
        "}");
    Map<Integer, ChunkDoc> bytes = Map.of(
        1, chunk(1, 2, 4, 2, "nextByte", "Scanner"),
        2, chunk(2, 5, 7, 5, "hasNextByte", "Scanner"));
    List<String> pool = List.of("class Pool {",
        "  public List<Task> pendingTasks(Queue queue) {", "    return queue.drain(pending);", "  }",
        "  public int pendingTasks() {", "    return pending.size();", "  }", "}");
    Map<Integer, ChunkDoc> pending = Map.of(
        1, chunk(1, 2, 4, 2, "pendingTasks", "Pool"),
        2, chunk(2, 5, 7, 5, "pendingTasks", "Pool"));
    return Stream.of(
        // isEmpty 0.9 x (1 + 0.5 x 1) = 1.35 passes toPrimitive 1.0 x (1 + 0.5 x 1/2) = 1.25; by
        // the stems alone toPrimitive kept 1.5.
        Arguments.of("a predicate sentence lifts a predicate above a conversion of its words",
            arrays, null, 0.9, "Checks if an array of primitive longs is empty or null",
            List.of(2, 1)),
        // Both codes say instant and clock (2 of 5 stems: x 1.4); the signatures say instant and
        // clock (x 1.2) and instant alone (x 1.1): 0.95 x 1.68 passes 1.0 x 1.54.
        Arguments.of("the overload whose signature says the sentence rises above its sibling",
            nows, clocks, 0.95, "Obtains the current instant from the specified clock",
            List.of(2, 1)),
        // Both names are said in full and both codes say "next" and "byte"; the predicate
        // declared boolean (x 1.5) passes the parser of the same words.
        Arguments.of("a predicate sentence lifts the definition declared to return a boolean",
            bytes, scanner, 0.9,
            "Returns true if the next token can be interpreted as a byte value", List.of(2, 1)),
        // Both say the name, "pending" and "tasks" in code and signature; the one declared to
        // return an integer (x 1.5) is the count.
        Arguments.of("a count sentence lifts the definition declared to return an integer",
            pending, pool, 0.9, "Returns the number of pending tasks", List.of(2, 1)),
        Arguments.of("a sentence that describes no predicate keeps those two in order",
            bytes, scanner, 0.9, "Scans the next token of the input as a byte value",
            List.of(1, 2)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("twoCandidates")
  void theDefinitionPriorOrdersTwoCandidates(String why, Map<Integer, ChunkDoc> chunks,
      @Nullable List<String> file, double second, String query, List<Integer> expected)
      throws IOException {
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>(
        List.of(fused(1, 1.0), fused(2, second)));
    DefinitionMatch.apply(ranked, query, chunks::get, doc -> file, doc -> null, ANALYZER);
    assertThat(order(ranked)).as(why).isEqualTo(expected);
  }

  @Test
  void aSearchWeighsEachCandidateOnce() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 3, 1, "toPrimitive", "ArrayUtils"),
        2, chunk(2, 4, 6, 4, "isEmpty", "ArrayUtils"));
    List<String> file = List.of("static long[] toPrimitive(Long[] a) {", "  return null;", "}",
        "static boolean isEmpty(long[] a) {", "  return a == null;", "}");
    int[] reads = new int[1];
    DefinitionMatch.Lines lines = doc -> {
      reads[0]++;
      return file;
    };
    String sentence = "Checks if an array of primitive longs is empty or null";
    DefinitionMatch.Factors factors = new DefinitionMatch.Factors();
    List<HybridFuser.Fused> first = new java.util.ArrayList<>(List.of(fused(1, 1.0),
        fused(2, 0.9)));
    List<HybridFuser.Fused> again = new java.util.ArrayList<>(first);
    DefinitionMatch.apply(first, sentence, chunks::get, lines, doc -> null, ANALYZER, factors);
    DefinitionMatch.apply(again, sentence, chunks::get, lines, doc -> null, ANALYZER, factors);
    // Each candidate's code read once (its factor computed once), the same order both times.
    assertThat(reads[0]).isEqualTo(2);
    assertThat(order(again)).isEqualTo(order(first));
  }

  @Test
  void aSentenceLiftsTheDefinitionItNamesAboveItsNeighbours() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 20, 5, "Queue", null),           // the type's header
        2, chunk(2, 21, 30, 24, "peek", "Queue"),
        3, chunk(3, 31, 40, 33, "elementCount", "Queue"));
    List<HybridFuser.Fused> fused = List.of(fused(1, 1.0), fused(2, 0.95), fused(3, 0.9));
    List<HybridFuser.Fused> ranked =
        apply(fused, "Returns the number of elements waiting", chunks);
    // elementCount: "element" said, "count" not: 0.9 x 1.25 first; the unnamed type's header
    // (1.0 x 0.8) below peek (0.95).
    assertThat(order(ranked)).containsExactly(3, 2, 1);
    assertThat(ranked.get(0).score()).isEqualTo(1.0);
    assertThat(ranked).allSatisfy(f -> assertThat(f.score()).isBetween(0.0, 1.0));
  }

  @Test
  void anIdentifierOrANamePhraseKeepsTheFusedOrder() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 20, 5, "Queue", null),
        2, chunk(2, 21, 30, 24, "elementCount", "Queue"));
    List<HybridFuser.Fused> fused = List.of(fused(1, 1.0), fused(2, 0.9));
    assertThat(apply(fused, "elementCount", chunks)).isEqualTo(fused);
    assertThat(apply(fused, "element count", chunks)).isEqualTo(fused);
  }

  @Test
  void aSentenceThatDoesNotNameATypeRanksItsHeaderBelowAMember() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 20, 5, "Stopwatch", null),       // the type's header
        2, chunk(2, 60, 70, 52, "Stopwatch", null),     // lines between its members
        3, chunk(3, 21, 30, 24, "lap", "Stopwatch"));
    List<HybridFuser.Fused> fused = List.of(fused(1, 1.0), fused(2, 0.9), fused(3, 0.85));
    assertThat(RankFeatures.isType(chunks.get(1), NO_FILE)).isTrue();
    assertThat(RankFeatures.isType(chunks.get(2), NO_FILE)).isTrue();
    assertThat(RankFeatures.isType(chunks.get(3), NO_FILE)).isFalse();
    assertThat(order(apply(fused, "Records the time of one round of the race", chunks)))
        .containsExactly(3, 1, 2);
    // A sentence that names the type too: the type is what the described function works on.
    assertThat(order(apply(fused, "Starts a new stopwatch for the race", chunks)))
        .containsExactly(3, 1, 2);
  }

  @Test
  void aCandidateWhoseCodeSaysTheSentenceRisesAboveASiblingWithTheDoc() throws IOException {
    List<String> file = List.of("class Text {", "  /**", "   * Strips whitespace from the end.",
        "   */", "  static String first(String s) {", "    return s;", "  }",
        "  static String second(String str) {", "    return stripWhitespace(str, END);", "  }",
        "}");
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 2, 7, 5, "first", "Text"),
        2, chunk(2, 8, 10, 8, "second", "Text"));
    List<HybridFuser.Fused> fused = List.of(fused(1, 1.0), fused(2, 0.9));
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>(fused);
    DefinitionMatch.apply(ranked, "Strips whitespace from the end of a string", chunks::get,
        doc -> file, doc -> null, ANALYZER);
    // first's code says "string" (1 of 4 stems), its doc does not count; second's says all 4.
    assertThat(order(ranked)).containsExactly(2, 1);
    // Without its file (changed since indexed) a candidate keeps its score.
    assertThat(order(apply(fused, "Strips whitespace from the end of a string", chunks)))
        .containsExactly(1, 2);
  }

  @Test
  void aConstructorOrAGoTypeIsNotATypeChunk() throws IOException {
    assertThat(RankFeatures.isType(chunk(1, 1, 5, 2, "Queue", "Queue"), NO_FILE)).isFalse();
    assertThat(RankFeatures.isType(new ChunkDoc("a.go#1", "a.go", 1, 5, new int[] {1},
        List.of("Route"), "go", null), NO_FILE)).isFalse();
  }

  @Test
  void aGoTypeIsATypeChunkWhereItsFileIsRead() throws IOException {
    // Go capitalises exported functions and types alike: its declaration's line tells them.
    List<String> file = List.of("type Route struct {", "  name string", "}",
        "func (r *Route) Name() string {", "  return r.name", "}",
        "func NewRoute() *Route {", "  return &Route{}", "}",
        "type (", "  matcher interface {", "    Match() bool", "  }", ")");
    ChunkDoc route = new ChunkDoc("a.go#1", "a.go", 1, 3, new int[] {1}, List.of("Route"), "go",
        null);
    ChunkDoc matcher = new ChunkDoc("a.go#4", "a.go", 10, 14, new int[] {11},
        List.of("matcher"), "go", null);
    ChunkDoc name = new ChunkDoc("a.go#2", "a.go", 4, 6, new int[] {4}, List.of("Name"), "go",
        null);
    ChunkDoc newRoute = new ChunkDoc("a.go#3", "a.go", 7, 9, new int[] {7},
        List.of("NewRoute"), "go", null);
    assertThat(RankFeatures.isType(route, () -> file)).isTrue();
    assertThat(RankFeatures.kind(route, () -> file)).isEqualTo(3);
    assertThat(RankFeatures.isType(matcher, () -> file)).isTrue();
    assertThat(RankFeatures.isType(name, () -> file)).isFalse();
    assertThat(RankFeatures.kind(newRoute, () -> file)).isEqualTo(5);
    // Its doc comment (a piece without the header) is a type's too; without the file, not.
    ChunkDoc doc = new ChunkDoc("a.go#0", "a.go", 1, 1, new int[] {2}, List.of("Route"), "go",
        null);
    assertThat(RankFeatures.isType(doc, () -> List.of("// Route is a route.", "type Route struct"
        + " {"))).isTrue();
    assertThat(RankFeatures.isType(route, NO_FILE)).isFalse();
  }

  /** A chunk of {@code path} in {@code language} whose definition {@code name} is on line 1. */
  private static ChunkDoc declared(String path, String language, String name,
      @Nullable String parent) {
    return new ChunkDoc(path + "#0", path, 1, 5, new int[] {1}, List.of(name), language, parent);
  }

  /** Whether the declaration {@code line} of {@code name} is a type's, with its file given. */
  private static boolean typeDeclared(String language, String line, String name)
      throws IOException {
    ChunkDoc c = declared("src/a." + language, language, name, null);
    return RankFeatures.isType(c, () -> List.of(line))
        && RankFeatures.kind(c, () -> List.of(line)) == 3;
  }

  @Test
  void aCapitalisedFunctionIsAFunctionWhenItsDeclarationIsRead() throws IOException {
    // typebox names its functions in PascalCase; a C#-like method too.
    assertThat(typeDeclared("typescript", "export function Get<T>(type: T): T {", "Get")).isFalse();
    assertThat(typeDeclared("typescript", "export const Clone = (value: any) => {", "Clone"))
        .isFalse();
    assertThat(typeDeclared("javascript", "  static Create(type) {", "Create")).isFalse();
    assertThat(typeDeclared("python", "def Parse(text):", "Parse")).isFalse();
    assertThat(typeDeclared("java", "  public static Builder Of(Class<?> type) {", "Of")).isFalse();
    assertThat(typeDeclared("rust", "pub fn New() -> Self {", "New")).isFalse();
    ChunkDoc get = declared("src/get.ts", "typescript", "Get", null);
    assertThat(RankFeatures.kind(get, () -> List.of("export function Get(x) {"))).isEqualTo(5);
    ChunkDoc member = declared("src/a.ts", "typescript", "Check", "TypeCompiler");
    assertThat(RankFeatures.kind(member, () -> List.of("  public static Check(x) {")))
        .isEqualTo(4);
    // Types stay types, in every language that capitalises them.
    for (String[] t : new String[][] {
        {"typescript", "export class TypeBuilder<T> {", "TypeBuilder"},
        {"typescript", "export abstract class Value {", "Value"},
        {"typescript", "export interface TBoolean extends TSchema {", "TBoolean"},
        {"typescript", "export type Static<T> = T['static']", "Static"},
        {"typescript", "export enum Kind {", "Kind"},
        {"tsx", "export default class App extends Component {", "App"},
        {"python", "class OrderedSet(MutableSet):", "OrderedSet"},
        {"rust", "pub struct Span {", "Span"},
        {"rust", "pub(crate) enum State {", "State"},
        {"rust", "pub trait Visitor<'de>: Sized {", "Visitor"},
        {"rust", "impl<T: Display> fmt::Debug for Wrapper<T> {", "Wrapper"},
        {"java", "public final class Stopwatch {", "Stopwatch"},
        {"java", "sealed interface Shape permits Circle {", "Shape"},
        {"java", "public record Point(int x, int y) {", "Point"},
        {"java", "public @interface Nullable {", "Nullable"},
        {"java", "  enum Unit {", "Unit"}}) {
      assertThat(typeDeclared(t[0], t[1], t[2])).as(t[1]).isTrue();
    }
    // Without the file (changed since indexed, or not read) the capitalised name decides.
    assertThat(RankFeatures.isType(get, NO_FILE)).isTrue();
    assertThat(RankFeatures.isType(get, () -> null)).isTrue();
    // The name as a whole word only: a longer identifier that starts with it does not count.
    assertThat(typeDeclared("typescript", "const Getter = 1; export class Get {", "Get")).isTrue();
    assertThat(typeDeclared("typescript", "export const Getter = function Get() {", "Get"))
        .isFalse();
    // Not on its line, or its line past the file's end (the file changed): the name decides.
    assertThat(typeDeclared("typescript", "export default function (x) {", "Get")).isTrue();
    ChunkDoc past = new ChunkDoc("src/a.ts#0", "src/a.ts", 7, 9, new int[] {7}, List.of("Get"),
        "typescript", null);
    assertThat(RankFeatures.isType(past, () -> List.of("export function Get() {"))).isTrue();
  }

  @Test
  void aCapitalisedFunctionIsWeighedByItsNameAndCompetesInItsFile() throws IOException {
    List<String> file = List.of("export function Clone(value: unknown) {",
        "  return structuredClone(value)", "}", "export class ValueGuard {",
        "  static check(value: unknown) { return true }", "}");
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, new ChunkDoc("src/value.ts#1", "src/value.ts", 1, 3, new int[] {1}, List.of("Clone"),
            "typescript", null),
        2, new ChunkDoc("src/value.ts#2", "src/value.ts", 4, 6, new int[] {4},
            List.of("ValueGuard"), "typescript", null),
        3, new ChunkDoc("src/other.ts#3", "src/other.ts", 1, 3, new int[] {1}, List.of("visit"),
            "typescript", null));
    String query = "Returns a deep clone of the given value";
    // Clone's name says "clone": 1 + 0.5 x 1 (not a type's 0.8), times its code and signature.
    DefinitionMatch.Shares s = DefinitionMatch.shares(1, chunks.get(1), stems(query), Set.of(),
        null, doc -> file, ANALYZER);
    assertThat(s.name()).isEqualTo(1.0);
    assertThat(s.factor())
        .isCloseTo(1.5 * (1 + s.code()) * (1 + 0.5 * s.signature()), within(1e-9));
    // The type's header first: Clone, a function of its file that says the sentence, competes.
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>(
        List.of(fused(2, 1.0), fused(3, 0.9)));
    InFilePromotion.promote(ranked, query, chunks::get, doc -> file, doc -> null,
        (first, depth) -> List.of(2, 1), ANALYZER);
    assertThat(order(ranked)).containsExactly(1, 2, 3);
  }

  @Test
  void aConstructorIsNotLiftedByTheTypeNameTheSentenceSays() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 10, 3, "Stopwatch", "Stopwatch"),   // the constructor
        2, chunk(2, 11, 20, 12, "elapsed", "Stopwatch"));
    List<HybridFuser.Fused> fused = List.of(fused(1, 1.0), fused(2, 0.9));
    // The sentence names the type the method works on, not the constructor: Stopwatch keeps
    // 1.0 (it was 1.5 when its name counted), elapsed 0.9 x 1.5.
    assertThat(order(apply(fused, "Returns the time elapsed on this stopwatch", chunks)))
        .containsExactly(2, 1);
  }

  @Test
  void theSignatureOfADeclarationEndsWhereItsBodyOpens() {
    List<String> file = List.of("  /** Doc. */", "  static Instant now(Clock clock,",
        "      ZoneId zone) {", "    return clock.instant();", "  }", "  abstract int size();",
        "  def run(self,", "          args):", "    pass");
    assertThat(SentenceShares.signature(file, 2)).containsExactly(file.get(1), file.get(2));
    assertThat(SentenceShares.signature(file, 6)).containsExactly(file.get(5));
    assertThat(SentenceShares.signature(file, 7)).containsExactly(file.get(6), file.get(7));
    assertThat(SentenceShares.signature(file, 40)).isEmpty();
  }

  @Test
  void aDeclarationsIntegerResultIsReadInEachLanguage() {
    assertThat(ResultType.INTEGER.declaredBy(List.of("  public int size() {"))).isTrue();
    assertThat(ResultType.INTEGER.declaredBy(List.of("func (c *Cache) Len() int {"))).isTrue();
    assertThat(ResultType.INTEGER.declaredBy(List.of("pub fn len(&self) -> usize {"))).isTrue();
    assertThat(ResultType.INTEGER.declaredBy(List.of("def count(self) -> int:"))).isTrue();
    assertThat(ResultType.INTEGER.declaredBy(List.of("get length(): number {"))).isTrue();
    // An array of integers, an integer parameter or another result is none.
    assertThat(ResultType.INTEGER.declaredBy(List.of(
        "  public static long[] toPrimitive(final Long[] array) {"))).isFalse();
    assertThat(ResultType.INTEGER.declaredBy(List.of("pub fn nth(&self, n: usize) -> bool {")))
        .isFalse();
    assertThat(ResultType.INTEGER.declaredBy(List.of("func (s *Set) Add(n int) error {")))
        .isFalse();
    assertThat(NameConventions.count("Returns the number of elements in this list")).isTrue();
    assertThat(NameConventions.count("Gets the size of the map")).isTrue();
    assertThat(NameConventions.count("Returns the name of the map")).isFalse();
  }

  @Test
  void aDeclarationsBooleanResultIsReadInEachLanguage() {
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("  public static <T> boolean isEmpty(",
        "      final T[] array) {"))).isTrue();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("func (c *Command) HasParent() bool {")))
        .isTrue();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("func (r *Route) ok() (bool, error) {")))
        .isTrue();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("pub fn is_closed(&self) -> bool {")))
        .isTrue();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("def is_even(n) -> bool:"))).isTrue();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("function isType(x: unknown): boolean {")))
        .isTrue();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of(
        "export function isSource(source: unknown): source is Source {"))).isTrue();
    // A boolean parameter, another result or none is no boolean result.
    assertThat(ResultType.BOOLEAN.declaredBy(List.of(
        "  public static String toString(boolean flag) {"))).isFalse();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("func (c *Command) SetFlag(b bool) {")))
        .isFalse();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of(
        "pub fn has_changed(&self) -> Result<bool, RecvError> {"))).isFalse();
    assertThat(ResultType.BOOLEAN.declaredBy(List.of("def is_even(n):"))).isFalse();
  }

  @Test
  void withinAFileTheDefinitionsOwnWordsDecideTheOrderOfItsPlaces() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 10, 3, "peek", "Queue"),
        2, chunk(2, 11, 20, 12, "elementCount", "Queue"),
        3, new ChunkDoc("src/Other.java#3", "src/Other.java", 1, 10, new int[] {2},
            List.of("drain"), "java", "Other"));
    List<HybridFuser.Fused> fused = List.of(fused(1, 1.0), fused(3, 0.99), fused(2, 0.78));
    List<HybridFuser.Fused> ranked =
        apply(fused, "Returns the number of elements waiting", chunks);
    // elementCount: 0.78 x 1.25 = 0.975, third after the fusion and the name share; between
    // Queue's two places its factor counts once more (1.22 against peek's 1.0): it takes the
    // first place and its score, peek the third; Other.java keeps the second.
    assertThat(order(ranked)).containsExactly(2, 3, 1);
    assertThat(ranked.get(0).score()).isEqualTo(1.0);
    assertThat(ranked.get(2).score()).isCloseTo(0.975, within(1e-9));
    // In a workspace, Queue.java of two repositories is two files: each keeps its place.
    List<HybridFuser.Fused> workspace = new java.util.ArrayList<>(fused);
    DefinitionMatch.apply(workspace, "Returns the number of elements waiting", chunks::get,
        doc -> null, doc -> doc == 2 ? "b" : "a", ANALYZER);
    assertThat(order(workspace)).containsExactly(1, 3, 2);
  }

  @Test
  void theCodeShareReachesTheFiftiethCandidate() throws IOException {
    // 45 candidates, each its own file; the 41st's code says the sentence, the others' files
    // changed since indexing (no code read).
    List<String> file = List.of("static String stripEnd(String str) {",
        "  return stripWhitespace(str, END);", "}");
    Map<Integer, ChunkDoc> chunks = new java.util.HashMap<>();
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>();
    for (int i = 0; i < 45; i++) {
      chunks.put(i, new ChunkDoc("src/F" + i + ".java#" + i, "src/F" + i + ".java", 1, 3,
          new int[] {1}, List.of("other"), "java", null));
      ranked.add(fused(i, 1.0 - i * 0.01));
    }
    DefinitionMatch.apply(ranked, "Strips whitespace from the end of a string", chunks::get,
        doc -> doc == 40 ? file : null, doc -> null, ANALYZER);
    // 0.60 x 2 (code) x 1.25 (signature: strip, string) = 1.5: first. At a depth of 30 the 41st
    // kept its place.
    assertThat(order(ranked).get(0)).isEqualTo(40);
  }

  @Test
  void aNameWordThatBeginsAWordOfTheSentenceIsSaid() {
    Set<String> q = stems("Gets the user directory as a File");
    assertThat(SentenceShares.nameShare("getUserDir", q, ANALYZER)).isEqualTo(1.0);
    assertThat(SentenceShares.nameShare("getUserHome", q, ANALYZER)).isEqualTo(2.0 / 3);
    // Two letters are too few to count as a word's beginning.
    assertThat(SentenceShares.nameShare("getDi", q, ANALYZER)).isEqualTo(0.5);
  }

  @Test
  void aDefinitionOfTheFirstHitsFileThatSaysTheSentenceBetterTakesTheFirstPlace()
      throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 10, 3, "peek", "Queue"),
        2, chunk(2, 11, 20, 12, "elementCount", "Queue"),
        3, new ChunkDoc("src/Other.java#3", "src/Other.java", 1, 10, new int[] {2},
            List.of("drain"), "java", "Other"),
        4, chunk(4, 21, 30, 22, "Queue", null));
    String query = "Returns the number of elements waiting";
    // Neither engine's cut reached elementCount: only the lexical engine asked within
    // Queue.java finds it (and Queue's header, a type, which does not compete).
    List<HybridFuser.Fused> ranked =
        apply(List.of(fused(1, 1.0), fused(3, 0.99), fused(4, 0.5)), query, chunks);
    assertThat(order(ranked)).containsExactly(1, 3, 4);
    InFilePromotion.promote(ranked, query, chunks::get, doc -> null, doc -> null,
        (first, depth) -> first.path().equals("src/Queue.java") ? List.of(4, 2, 1) : List.of(),
        ANALYZER);
    // elementCount's name says "element" (1.25 against peek's 1.0): first, with peek's score.
    assertThat(order(ranked)).containsExactly(2, 1, 3, 4);
    assertThat(ranked.get(0).score()).isEqualTo(ranked.get(1).score());
    // A definition of another file, or none saying more than the first hit, changes nothing.
    List<HybridFuser.Fused> other = new java.util.ArrayList<>(
        List.of(fused(3, 1.0), fused(1, 0.9)));
    InFilePromotion.promote(other, query, chunks::get, doc -> null, doc -> null,
        (first, depth) -> List.of(2), ANALYZER);
    assertThat(order(other)).containsExactly(3, 1);
    // An identifier is the identifier guard's.
    List<HybridFuser.Fused> name = new java.util.ArrayList<>(
        List.of(fused(1, 1.0), fused(3, 0.9)));
    InFilePromotion.promote(name, "elementCount", chunks::get, doc -> null, doc -> null,
        (first, depth) -> List.of(2), ANALYZER);
    assertThat(order(name)).containsExactly(1, 3);
  }

  @Test
  void afterATypesHeaderTheFilesWeighedCandidatesCompeteToo() throws IOException {
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 10, 3, "peek", "Queue"),
        2, chunk(2, 11, 20, 12, "elementCount", "Queue"),
        4, chunk(4, 21, 30, 22, "Queue", null),
        5, new ChunkDoc("src/Queue.java#5", "src/Queue.java", 31, 40, new int[] {32},
            List.of("constructor"), "typescript", "Queue"));
    String query = "Returns the number of elements waiting";
    // Queue's header first; elementCount third, among the first 50: weighed already, but the
    // header is no function, so it competes; the hook "constructor" never does.
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>(
        List.of(fused(4, 1.0), fused(1, 0.9), fused(2, 0.8), fused(5, 0.7)));
    InFilePromotion.promote(ranked, query, chunks::get, doc -> null, doc -> null,
        (first, depth) -> List.of(5, 2), ANALYZER);
    assertThat(order(ranked)).containsExactly(2, 4, 1, 5);
    // After a function, the first 50 candidates keep their order.
    List<HybridFuser.Fused> function = new java.util.ArrayList<>(
        List.of(fused(1, 1.0), fused(2, 0.8)));
    InFilePromotion.promote(function, query, chunks::get, doc -> null, doc -> null,
        (first, depth) -> List.of(2), ANALYZER);
    assertThat(order(function)).containsExactly(1, 2);
    assertThat(InFilePromotion.hook("__iter__")).isTrue();
    assertThat(InFilePromotion.hook("__")).isFalse();
  }

  @Test
  void afterAFunctionItsOverloadsCompeteAndSiblingsOfOtherNamesDoNot() throws IOException {
    List<String> file = List.of(
        "  public static void swap(final float[] array, final int offset1, final int offset2) {",
        "    swap(array, offset1, offset2, 1);",
        "  }",
        "  public static void swap(final float[] array, int offset1, int offset2, int length) {",
        "    for (int i = 0; i < length; i++) { exchange(array, offset1 + i, offset2 + i); }",
        "  }",
        "  static float[] seriesOfElements(final float[] array, int length) {",
        "    return series(array, length, elements(array));",
        "  }");
    Map<Integer, ChunkDoc> chunks = Map.of(
        1, chunk(1, 1, 3, 1, "swap", "ArrayUtils"),
        2, chunk(2, 4, 6, 4, "swap", "ArrayUtils"),
        3, chunk(3, 7, 9, 7, "seriesOfElements", "ArrayUtils"),
        4, new ChunkDoc("src/Other.java#4", "src/Other.java", 4, 6, new int[] {4},
            List.of("swap"), "java", "Other"));
    String query = "Swaps a series of elements of the given length in the array";
    // All three among the first 50, the three-argument swap first: its four-argument overload's
    // signature and code say "length" too, so it takes the first place; the sibling
    // seriesOfElements says still more, but another name is not the first hit's overload.
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>(
        List.of(fused(1, 1.0), fused(3, 0.9), fused(2, 0.8)));
    InFilePromotion.promote(ranked, query, chunks::get, doc -> file, doc -> null,
        (first, depth) -> List.of(3, 2, 1), ANALYZER);
    assertThat(order(ranked)).containsExactly(2, 1, 3);
    assertThat(ranked.get(0).score()).isEqualTo(1.0);
    // A definition of that name in another file is not an overload.
    List<HybridFuser.Fused> other = new java.util.ArrayList<>(
        List.of(fused(1, 1.0), fused(4, 0.8)));
    InFilePromotion.promote(other, query, chunks::get, doc -> file, doc -> null,
        (first, depth) -> List.of(), ANALYZER);
    assertThat(order(other)).containsExactly(1, 4);
  }

  @Test
  void theFirstHitsOverloadsBelowTheFilesFirstTwentyChunksCompeteToo() throws IOException {
    List<String> file = new java.util.ArrayList<>(List.of(
        "  public static void swap(final float[] array, final int offset1, final int offset2) {",
        "    swap(array, offset1, offset2, 1);",
        "  }",
        "  public static void swap(final float[] array, int offset1, int offset2, int length) {",
        "    for (int i = 0; i < length; i++) { exchange(array, offset1 + i, offset2 + i); }",
        "  }"));
    Map<Integer, ChunkDoc> chunks = new java.util.HashMap<>(Map.of(
        1, chunk(1, 1, 3, 1, "swap", "ArrayUtils"),
        2, chunk(2, 4, 6, 4, "swap", "ArrayUtils")));
    List<Integer> inFile = new java.util.ArrayList<>();
    for (int i = 0; i < 21; i++) { // siblings the sentence does not describe
      file.add("  void other" + i + "() {}");
      chunks.put(10 + i, chunk(10 + i, file.size(), file.size(), file.size(), "other" + i,
          "ArrayUtils"));
      inFile.add(10 + i);
    }
    inFile.add(2); // the four-argument swap, 22nd in the file for the lexical engine
    String query = "Swaps a series of elements of the given length in the array";
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>(List.of(fused(1, 1.0)));
    InFilePromotion.promote(ranked, query, chunks::get, doc -> file, doc -> null,
        (first, depth) -> inFile.subList(0, Math.min(depth, inFile.size())), ANALYZER);
    assertThat(order(ranked)).containsExactly(2, 1);
  }

  /** {@link DefinitionMatch#apply} on a copy of {@code fused}, which it re-ranks in place. */
  private static List<HybridFuser.Fused> apply(List<HybridFuser.Fused> fused, String query,
      Map<Integer, ChunkDoc> chunks) throws IOException {
    List<HybridFuser.Fused> ranked = new java.util.ArrayList<>(fused);
    DefinitionMatch.apply(ranked, query, chunks::get, doc -> null, doc -> null, ANALYZER);
    return ranked;
  }
}
