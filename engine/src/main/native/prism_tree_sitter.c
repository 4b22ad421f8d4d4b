/*
 * The native half of dev.prismindex.engine.internal.chunk.NativeDefinitions: parses a file with
 * tree-sitter and returns its definitions in one call, so no tree node crosses into Java. Built
 * with the tree-sitter runtime and the grammars at -O2 by build.sh (see there).
 *
 * Licensed under the Apache License, Version 2.0.
 */
#include <jni.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <tree_sitter/api.h>
#include "prism_alloc.h"

const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_rust(void);

/*
 * Each thread's arena for tree-sitter's memory during one scan: a bump allocator over a region
 * reserved once per thread (pages are touched as used and kept for the next file), reset after
 * each file instead of freeing the tree node by node (tree-sitter frees every subtree it made; the
 * parse, the walk and the frees of a file took about a tenth longer on malloc). A free inside the
 * arena does nothing; memory past its limit comes from malloc, and a scan that took any frees its
 * tree the usual way. Outside a scan (no arena active on the thread) tree-sitter gets malloc.
 *
 * tree-sitter cannot go on when an allocation fails (its own allocator aborts the process). Ours
 * does not return then: it jumps back to the scan that called tree-sitter (escape, set for the
 * length of each scan), which gives up on the file without touching the parser or the tree again
 * and throws NativeMemoryException, so the chunker parses that file with the binding instead.
 */
#define ARENA_RESERVED ((size_t) 256 << 20)
#define ARENA_KEPT ((size_t) 8 << 20)
#define HEADER 16

typedef struct {
  char *base;
  size_t used;
  int overflowed;
} Arena;

static __thread Arena *current;
static __thread Arena *own;
static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;
/* Whether arena_key was made: no arena otherwise. */
static int arena_ready;
/* The bytes an arena hands out before malloc takes over (smaller in a test). */
static volatile size_t arena_limit = ARENA_RESERVED;

/* Where a failed allocation inside tree-sitter returns to: the running scan of this thread. */
static __thread jmp_buf *escape;

/* A failed allocation: back to the scan, which reports it to Java. */
static void *no_memory(size_t size) {
  if (escape != NULL) {
    longjmp(*escape, 1);
  }
  /* Unreachable: tree-sitter is called only by parse_and_walk and release, which set escape. */
  fprintf(stderr, "tree-sitter failed to allocate %zu bytes outside a scan\n", size);
  abort();
}

/* p, or the failure path when an allocation of size bytes (more than 0) gave NULL. */
static void *or_escape(void *p, size_t size) {
  return p == NULL && size > 0 ? no_memory(size) : p;
}

static int in_arena(const Arena *a, const void *p) {
  return a != NULL && (const char *) p >= a->base && (const char *) p < a->base + ARENA_RESERVED;
}

static void *arena_malloc(size_t size) {
  Arena *a = current;
  size_t rounded = (size + HEADER - 1) & ~(size_t) (HEADER - 1);
  if (size > ARENA_RESERVED || a == NULL || a->used + HEADER + rounded > arena_limit) {
    if (a != NULL) {
      a->overflowed = 1;
    }
    return or_escape(prism_malloc(size), size);
  }
  if (prism_alloc_refused()) {
    return no_memory(size);
  }
  char *block = a->base + a->used;
  *(size_t *) block = rounded;
  a->used += HEADER + rounded;
  return block + HEADER;
}

static void *arena_calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) {
    return no_memory(SIZE_MAX);
  }
  void *p = arena_malloc(count * size);
  memset(p, 0, count * size);
  return p;
}

static void *arena_realloc(void *p, size_t size) {
  Arena *a = current;
  if (p == NULL) {
    return arena_malloc(size);
  }
  if (!in_arena(own, p)) {
    return or_escape(prism_realloc(p, size), size);
  }
  size_t *header = (size_t *) ((char *) p - HEADER);
  size_t old = *header;
  if (size <= old) {
    return p;
  }
  size_t rounded = (size + HEADER - 1) & ~(size_t) (HEADER - 1);
  if (size <= ARENA_RESERVED && a != NULL && (char *) p + old == a->base + a->used
      && a->used - old + rounded <= arena_limit) {
    if (prism_alloc_refused()) {
      return no_memory(size);
    }
    a->used += rounded - old; /* the last block: grown in place */
    *header = rounded;
    return p;
  }
  void *grown = arena_malloc(size);
  memcpy(grown, p, old);
  return grown;
}

static void arena_free(void *p) {
  /* current is own or null: a block of this thread's arena, whether or not a scan is on */
  if (p != NULL && !in_arena(own, p)) {
    free(p);
  }
}

static void arena_delete(void *arena) {
  Arena *a = arena;
  munmap(a->base, ARENA_RESERVED);
  free(a);
}

static void arena_setup(void) {
  /* Ours whether or not there can be arenas: tree-sitter's default allocator aborts on failure. */
  ts_set_allocator(arena_malloc, arena_calloc, arena_realloc, arena_free);
  arena_ready = pthread_key_create(&arena_key, arena_delete) == 0;
}

/* This thread's arena, made on its first scan, or null (tree-sitter then uses malloc). */
static Arena *arena_enter(void) {
  pthread_once(&arena_once, arena_setup);
  if (!arena_ready) {
    return NULL;
  }
  if (own == NULL) {
    void *base = mmap(NULL, ARENA_RESERVED, PROT_READ | PROT_WRITE,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    Arena *a = base == MAP_FAILED ? NULL : malloc(sizeof(Arena));
    if (a == NULL) {
      if (base != MAP_FAILED) {
        munmap(base, ARENA_RESERVED);
      }
      return NULL;
    }
    a->base = base;
    a->used = 0;
    a->overflowed = 0;
    if (pthread_setspecific(arena_key, a) != 0) {
      munmap(base, ARENA_RESERVED);
      free(a);
      return NULL;
    }
    own = a;
  }
  own->used = 0;
  own->overflowed = 0;
  current = own;
  return own;
}

/* Ends a scan's use of the arena: its pages past the first ARENA_KEPT bytes go back. */
static void arena_leave(Arena *a) {
  current = NULL;
  if (a != NULL && a->used > ARENA_KEPT) {
    madvise(a->base + ARENA_KEPT, a->used - ARENA_KEPT, MADV_DONTNEED);
  }
  if (a != NULL) {
    a->used = 0;
  }
}

JNIEXPORT void JNICALL Java_dev_prismindex_engine_internal_chunk_NativeDefinitions_arenaLimit(
    JNIEnv *env, jclass cls, jlong bytes) {
  (void) env;
  (void) cls;
  arena_limit = bytes <= 0 || (size_t) bytes > ARENA_RESERVED ? ARENA_RESERVED : (size_t) bytes;
}

/* Record kinds of scan's output, RECORD ints each. */
#define KIND_DEFINITION 0
#define KIND_MACRO_BODY 1
#define RECORD 9

typedef struct {
  jint *data;
  size_t size;
  size_t capacity;
  int failed;
} Ints;

static void push(Ints *out, const jint *values, size_t n) {
  if (out->failed) {
    return;
  }
  if (out->size + n > out->capacity) {
    size_t capacity = out->capacity == 0 ? 256 : out->capacity * 2;
    while (capacity < out->size + n) {
      capacity *= 2;
    }
    jint *grown = prism_realloc(out->data, capacity * sizeof(jint));
    if (grown == NULL) {
      out->failed = 1;
      return;
    }
    out->data = grown;
    out->capacity = capacity;
  }
  memcpy(out->data + out->size, values, n * sizeof(jint));
  out->size += n;
}

static int is_type(TSNode node, const char *type) {
  return strcmp(ts_node_type(node), type) == 0;
}

static TSNode field(TSNode node, const char *name) {
  return ts_node_child_by_field_name(node, name, (uint32_t) strlen(name));
}

/* The node holding a definition's name, or a null node: Chunker.nameNode, rule for rule. */
static TSNode name_node(TSNode node) {
  TSNode none = {0};
  if (is_type(node, "decorated_definition")) {
    TSNode inner = field(node, "definition");
    return ts_node_is_null(inner) ? none : name_node(inner);
  }
  if (is_type(node, "impl_item")) {
    return field(node, "type");
  }
  if (is_type(node, "type_declaration")) {
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++) {
      TSNode name = field(ts_node_named_child(node, i), "name");
      if (!ts_node_is_null(name)) {
        return name;
      }
    }
    return none;
  }
  if (is_type(node, "lexical_declaration") || is_type(node, "variable_declaration")) {
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++) {
      TSNode declarator = ts_node_named_child(node, i);
      TSNode value = field(declarator, "value");
      if (!ts_node_is_null(value) && (is_type(value, "arrow_function")
          || is_type(value, "function_expression") || is_type(value, "function"))) {
        return field(declarator, "name");
      }
    }
    return none;
  }
  return field(node, "name");
}

static int contains(const jint *symbols, jsize n, TSSymbol symbol) {
  for (jsize i = 0; i < n; i++) {
    if ((TSSymbol) symbols[i] == symbol) {
      return 1;
    }
  }
  return 0;
}

/* Chunker.isContainer: a container type, or a decorated definition of one. */
static int is_container(TSNode node, const jint *containers, jsize n) {
  if (is_type(node, "decorated_definition")) {
    TSNode inner = field(node, "definition");
    return !ts_node_is_null(inner) && is_container(inner, containers, n);
  }
  return contains(containers, n, ts_node_symbol(node));
}

JNIEXPORT jlong JNICALL Java_dev_prismindex_engine_internal_chunk_NativeDefinitions_language(
    JNIEnv *env, jclass cls, jint id) {
  (void) env;
  (void) cls;
  switch (id) {
    case 0: return (jlong) (intptr_t) tree_sitter_java();
    case 1: return (jlong) (intptr_t) tree_sitter_python();
    case 2: return (jlong) (intptr_t) tree_sitter_typescript();
    case 3: return (jlong) (intptr_t) tree_sitter_tsx();
    case 4: return (jlong) (intptr_t) tree_sitter_javascript();
    case 5: return (jlong) (intptr_t) tree_sitter_go();
    case 6: return (jlong) (intptr_t) tree_sitter_rust();
    default: return 0;
  }
}

JNIEXPORT jint JNICALL Java_dev_prismindex_engine_internal_chunk_NativeDefinitions_symbol(
    JNIEnv *env, jclass cls, jlong language, jbyteArray name) {
  (void) cls;
  jsize n = (*env)->GetArrayLength(env, name);
  jbyte *bytes = (*env)->GetByteArrayElements(env, name, NULL);
  if (bytes == NULL) {
    return 0;
  }
  TSSymbol symbol = ts_language_symbol_for_name((const TSLanguage *) (intptr_t) language,
      (const char *) bytes, (uint32_t) n, true);
  (*env)->ReleaseByteArrayElements(env, name, bytes, JNI_ABORT);
  return (jint) symbol;
}

/* One scan's input and what it made; the parse and walk write it, the JNI call cleans up. */
typedef struct {
  const TSLanguage *lang;
  const char *text;
  uint32_t length;
  const jint *defs;
  jsize ndefs;
  const jint *conts;
  jsize nconts;
  int macros;
  TSParser *parser;
  TSTree *tree;
  TSSymbol *path;
  Ints out;
  int jumped; /* tree-sitter ran out of memory: its parser and tree are not to be touched */
} Scan;

/*
 * Parses s->text and walks the whole tree once, in document order, into s->out (see scan).
 * Returns 0, or 1 when memory ran out: in tree-sitter (its allocator jumped back here: s->jumped,
 * and s->parser and s->tree are left half made) or in our own buffers (s->out.failed).
 */
static int parse_and_walk(Scan *s) {
  jmp_buf here;
  if (setjmp(here) != 0) {
    escape = NULL;
    s->jumped = 1;
    return 1;
  }
  escape = &here;
  s->parser = ts_parser_new();
  if (!ts_parser_set_language(s->parser, s->lang)) {
    escape = NULL;
    return 0;
  }
  s->tree = ts_parser_parse_string(s->parser, NULL, s->text, s->length);
  if (s->tree == NULL) {
    escape = NULL;
    return 0;
  }
  const TSLanguage *lang = s->lang;
  /* Looked up only for a grammar with macros: each lookup compares every symbol's name. */
  TSSymbol token_tree = s->macros ? ts_language_symbol_for_name(lang, "token_tree", 10, true) : 0;
  TSSymbol invocation =
      s->macros ? ts_language_symbol_for_name(lang, "macro_invocation", 16, true) : 0;
  TSSymbol source_file =
      s->macros ? ts_language_symbol_for_name(lang, "source_file", 11, true) : 0;
  TSSymbol declarations =
      s->macros ? ts_language_symbol_for_name(lang, "declaration_list", 16, true) : 0;
  size_t depth = 0;
  size_t path_capacity = 64;
  s->path = prism_malloc(path_capacity * sizeof(TSSymbol));
  if (s->path == NULL) {
    s->out.failed = 1;
    escape = NULL;
    return 1;
  }
  Ints *out = &s->out;
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(s->tree));
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    TSSymbol symbol = ts_node_symbol(node);
    if (ts_node_is_named(node)) {
      if (contains(s->defs, s->ndefs, symbol) && ts_node_named_child_count(node) > 0) {
        TSNode name = name_node(node);
        if (!ts_node_is_null(name)) {
          jint record[RECORD] = {KIND_DEFINITION, (jint) ts_node_start_byte(node),
              (jint) ts_node_end_byte(node), (jint) ts_node_start_point(node).row,
              (jint) ts_node_end_point(node).row, (jint) ts_node_start_byte(name),
              (jint) ts_node_end_byte(name), (jint) ts_node_start_point(name).row,
              (jint) is_container(node, s->conts, s->nconts)};
          push(out, record, RECORD);
        }
      }
      if (s->macros && symbol == token_tree && depth >= 2 && s->path[depth - 1] == invocation
          && (s->path[depth - 2] == source_file || s->path[depth - 2] == declarations)) {
        jint record[RECORD] = {KIND_MACRO_BODY, (jint) ts_node_start_byte(node),
            (jint) ts_node_end_byte(node), (jint) ts_node_start_point(node).row, 0, 0, 0, 0, 0};
        push(out, record, RECORD);
      }
    }
    if (out->failed) {
      break;
    }
    if (depth == path_capacity) {
      TSSymbol *grown = prism_realloc(s->path, path_capacity * 2 * sizeof(TSSymbol));
      if (grown == NULL) {
        out->failed = 1;
        break;
      }
      s->path = grown;
      path_capacity *= 2;
    }
    s->path[depth] = symbol;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      depth++;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (depth == 0 || !ts_tree_cursor_goto_parent(&cursor)) {
        goto walked;
      }
      depth--;
    }
  }
walked:
  ts_tree_cursor_delete(&cursor);
  escape = NULL;
  return out->failed;
}

/*
 * Deletes the tree (unless the arena holds all of it: then it goes with the arena) and the parser
 * (a grammar's external scanner keeps its state in malloc's memory). tree-sitter allocates while it
 * frees (a stack of subtrees); when that fails, what is left is not freed, and the scan's result
 * stands.
 */
static void release(Scan *s, const Arena *arena) {
  jmp_buf here;
  if (setjmp(here) != 0) {
    escape = NULL;
    return;
  }
  escape = &here;
  if (s->tree != NULL && (arena == NULL || arena->overflowed)) {
    ts_tree_delete(s->tree);
  }
  if (s->parser != NULL) {
    ts_parser_delete(s->parser);
  }
  escape = NULL;
}

/*
 * Parses utf8 and walks the whole tree once, in document order. Emits a definition record for
 * every node whose symbol is in definitions, has a named child and a name node:
 * {0, start byte, end byte, start row, end row, name start byte, name end byte, name row,
 * container}; with macros (Rust), a body record {1, start byte, end byte, start row, 0...} for
 * every token_tree of a macro_invocation whose parent is a source_file or declaration_list.
 * Returns null when the parser gives no tree. When memory runs out, throws NativeMemoryException
 * (the chunker then parses the file with the binding). When it ran out inside tree-sitter, the
 * memory tree-sitter took from the arena goes with the arena, and what it took from malloc for
 * this file (past the arena's limit; a grammar's external scanner state) is not freed: its
 * structures may be half made, so neither the tree nor the parser is touched again.
 */
JNIEXPORT jintArray JNICALL Java_dev_prismindex_engine_internal_chunk_NativeDefinitions_scan(
    JNIEnv *env, jclass cls, jlong language, jbyteArray utf8, jintArray definitions,
    jintArray containers, jboolean macros) {
  (void) cls;
  jsize length = (*env)->GetArrayLength(env, utf8);
  jsize ndefs = (*env)->GetArrayLength(env, definitions);
  jsize nconts = (*env)->GetArrayLength(env, containers);
  jint *defs = (*env)->GetIntArrayElements(env, definitions, NULL);
  jint *conts = (*env)->GetIntArrayElements(env, containers, NULL);
  jbyte *text = (*env)->GetByteArrayElements(env, utf8, NULL);
  jintArray result = NULL;
  int failed = 0;
  Scan s = {(const TSLanguage *) (intptr_t) language, (const char *) text, (uint32_t) length,
      defs, ndefs, conts, nconts, macros, NULL, NULL, NULL, {0}, 0};
  Arena *arena = NULL;
  if (defs != NULL && conts != NULL && text != NULL) {
    arena = arena_enter();
    failed = parse_and_walk(&s);
    if (!failed && s.tree != NULL) {
      result = (*env)->NewIntArray(env, (jsize) s.out.size);
      if (result != NULL && s.out.size > 0) {
        (*env)->SetIntArrayRegion(env, result, 0, (jsize) s.out.size, s.out.data);
      }
    }
  }
  free(s.path);
  free(s.out.data);
  if (!s.jumped) {
    release(&s, arena);
  }
  arena_leave(arena);
  if (text != NULL) {
    (*env)->ReleaseByteArrayElements(env, utf8, text, JNI_ABORT);
  }
  if (conts != NULL) {
    (*env)->ReleaseIntArrayElements(env, containers, conts, JNI_ABORT);
  }
  if (defs != NULL) {
    (*env)->ReleaseIntArrayElements(env, definitions, defs, JNI_ABORT);
  }
  if (failed) {
    prism_throw_no_memory(env, "tree-sitter scan: native memory exhausted");
  }
  return result;
}
