#!/usr/bin/env bash
# Builds libprism-native.so, the engine's JNI library for linux-x86_64: the tree-sitter runtime, the
# seven grammars the chunker parses and prism_tree_sitter.c (internal.chunk.NativeDefinitions); the
# official BLAKE3 C implementation and prism_blake3.c (internal.pipeline.Hashing); prism_grams.c (the
# n-grams of an ASCII file, internal.analysis.GramSet). All with -O2.
#
#   build.sh OUTPUT_DIR WORK_DIR [DOWNLOAD_DIR]
#
# Why: the tree-sitter binding's own native libraries (io.github.bonede) are built without
# optimisation (-O0); chunking spent about 40 % of a cold lexical index there (docs/engine.md,
# "Parsing"); and BLAKE3 in Java (commons-codec) is about 19x slower than the C implementation,
# which picks SSE2, SSE4.1, AVX2 or AVX-512 code at run time by CPUID (docs/engine.md, "Hashing");
# the n-grams of a file, a few percent of a cold lexical index in Java, cost a fraction of that in C
# (docs/engine.md, "Exact literal search").
# The sources are npm releases, pinned by sha256: tree-sitter's and those of the same grammar
# versions as the binding's jars; BLAKE3 1.3.1's C sources from @c4312/blake3-native (its c/
# directory: upstream's C code plus WebAssembly-only changes). They are downloaded from
# PRISM_NATIVE_REGISTRY (default https://registry.npmjs.org) into DOWNLOAD_DIR (default
# WORK_DIR/downloads; a download that verifies is used again, so a second build needs no network).
# Needs curl, tar, sha256sum, a C compiler (PRISM_NATIVE_CC, default gcc) and JAVA_HOME (for
# jni.h). Run by Maven (engine/pom.xml, profile native-linux-x86_64; -Dprism.native.skip=true
# skips it, -Dprism.native.cc and -Dprism.native.registry set those two).
#
# The library is an optimisation, never a requirement: without a tool, a download or a compiler
# that works, the script builds nothing, leaves no library behind, writes one line saying why and
# how to get it to WORK_DIR/degraded (which Maven prints as its one warning) and the details to
# WORK_DIR/build.log, and succeeds. The engine then chunks with the tree-sitter binding and hashes
# and finds n-grams in Java, with the same results.
set -euo pipefail
out_dir=$1
work=$2
downloads=${3:-$2/downloads}
here=$(cd "$(dirname "$0")" && pwd)
lib="$out_dir/libprism-native.so"
cc=${PRISM_NATIVE_CC:-gcc}
registry=${PRISM_NATIVE_REGISTRY:-https://registry.npmjs.org}
marker="$work/degraded"
log="$work/build.log"

# Leaves the library out: no library, the reason in the marker, exit 0.
degrade() {
  rm -f "$lib" "$lib.part"
  rm -rf "$out_dir/licenses"
  rmdir "$out_dir" 2>/dev/null || true
  echo "prism-index-engine: built without its native library libprism-native.so ($1), so" \
    "chunking runs on the tree-sitter binding (about 5x slower) and hashing and n-grams in Java;" \
    "to build it, have gcc, curl and tar on the PATH and https access to registry.npmjs.org, then" \
    "rebuild (details: $log; -Dprism.native.skip=true leaves it out without this warning)" \
    >"$marker"
  exit 0
}

# package@version|sha256 of its npm tarball
SOURCES=(
  "tree-sitter@0.25.1|07aeba8dd71630e7e72b2d4ca3bd2680c3471824100cc5ebff44e78a6ed0b6d3"
  "tree-sitter-java@0.23.5|6b6c1b62605f9d8bb80efd2ebe5951a87b182faafa3eeb67c460a667818551b6"
  "tree-sitter-python@0.25.0|63b76b3fa8181fd79eaad4abcdb21e2babcb504dbfc7710a89934fa456d26096"
  "tree-sitter-typescript@0.23.2|0fdf63c35930a75885145d75ee63cb879da2d49db9bfe454bd8e60b08ba778a1"
  "tree-sitter-javascript@0.25.0|6214ce23d03aba525ba8edd6ca7caf365c969f2c2dbfc353e376ca54507ffb92"
  "tree-sitter-go@0.25.0|f7265544d6b297797dc3675c02b76fb182c177ce29fda10ac1f36e9ab33fd90e"
  "tree-sitter-rust@0.24.0|4248da0b9ea40fec13ef010822e7b92a9d1ebdf74f6f2733539b1dbbb086c5bb"
  "@c4312/blake3-native@3.0.0|6e8162da74155b86efadcef1b2c617d6dc42f06676e841281867e33143a1937e"
)

# Up to date when newer than this script and every file of its own beside it.
up_to_date=true
for own in "$0" "$here"/*.c "$here"/*.h "$here"/*.LICENSE; do
  [[ -f "$lib" && "$lib" -nt "$own" ]] || up_to_date=false
done
mkdir -p "$work"
rm -f "$marker"
if $up_to_date; then
  exit 0
fi
: >"$log"
for tool in curl tar sha256sum "$cc"; do
  command -v "$tool" >/dev/null 2>&1 || degrade "$tool not found"
done
[[ -n "${JAVA_HOME:-}" && -f "$JAVA_HOME/include/jni.h" ]] ||
  degrade "no jni.h under JAVA_HOME=${JAVA_HOME:-}: a JDK is needed"
mkdir -p "$out_dir" "$downloads"

for entry in "${SOURCES[@]}"; do
  spec=${entry%%|*}
  sha=${entry##*|}
  name=${spec%@*}
  version=${spec##*@}
  base=${name##*/}   # a scoped package's tarball is named without its scope
  tgz="$downloads/$base-$version.tgz"
  if ! echo "$sha  $tgz" | sha256sum -c --status 2>/dev/null; then
    url="$registry/$name/-/$base-$version.tgz"
    echo "download $url" >>"$log"
    curl -fsSL --retry 2 --connect-timeout 10 -o "$tgz.part" "$url" 2>>"$log" ||
      degrade "could not download $name $version from $registry"
    mv "$tgz.part" "$tgz"
    # Never compiled unless it is the pinned file: a proxy's page or a changed tarball stops here.
    echo "$sha  $tgz" | sha256sum -c --status ||
      degrade "the download of $name $version does not match its pinned sha256"
  fi
  rm -rf "$work/src/$base"
  mkdir -p "$work/src/$base"
  tar -xzf "$tgz" -C "$work/src/$base" --strip-components=1
done

src="$work/src"
runtime="$src/tree-sitter/vendor/tree-sitter/lib"
blake3="$src/blake3-native/c"
# No debug information and no assertions (an assertion would abort the JVM); paths mapped so the
# library is the same bytes wherever it is built.
flags=(-O2 -g0 -DNDEBUG -fPIC -fvisibility=hidden -std=c11 -D_POSIX_C_SOURCE=200112L
  -D_DEFAULT_SOURCE "-ffile-prefix-map=$work=." "-ffile-prefix-map=$here=." "-ffile-prefix-map=$downloads=.")
units=(
  "runtime|$runtime/src/lib.c|-I$runtime/src -I$runtime/include"
  "alloc|$here/prism_alloc.c|-I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
  "glue|$here/prism_tree_sitter.c|-I$runtime/include -I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
  "blake3-glue|$here/prism_blake3.c|-I$blake3 -I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
  "grams|$here/prism_grams.c|-I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
  # BLAKE3 as its README builds it from the intrinsics sources: each SIMD unit with its own
  # instruction set only; blake3_dispatch.c calls one of them after checking CPUID, so the library
  # runs on any x86-64.
  "blake3|$blake3/blake3.c|"
  "blake3-dispatch|$blake3/blake3_dispatch.c|"
  "blake3-portable|$blake3/blake3_portable.c|"
  "blake3-sse2|$blake3/blake3_sse2.c|-msse2"
  "blake3-sse41|$blake3/blake3_sse41.c|-msse4.1"
  "blake3-avx2|$blake3/blake3_avx2.c|-mavx2"
  "blake3-avx512|$blake3/blake3_avx512.c|-mavx512f -mavx512vl"
)
for grammar in java python typescript/typescript typescript/tsx javascript go rust; do
  dir="$src/tree-sitter-${grammar%%/*}"
  [[ $grammar == */* ]] && dir="$src/tree-sitter-typescript/${grammar##*/}"
  tag=${grammar##*/}
  units+=("$tag-parser|$dir/src/parser.c|-I$dir/src")
  [[ -f "$dir/src/scanner.c" ]] && units+=("$tag-scanner|$dir/src/scanner.c|-I$dir/src")
done

objects=()
pids=()
compiled=true
for unit in "${units[@]}"; do
  IFS='|' read -r tag file includes <<<"$unit"
  # shellcheck disable=SC2086
  "$cc" "${flags[@]}" $includes -c "$file" -o "$work/$tag.o" 2>>"$log" &
  pids+=($!)
  objects+=("$work/$tag.o")
  if (( ${#pids[@]} >= 2 )); then
    wait "${pids[0]}" || compiled=false
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid" || compiled=false
done
$compiled || degrade "$cc failed to compile it"
# The licences of the sources compiled in, carried next to the library: the MIT licences of
# tree-sitter and the grammars from their tarballs; BLAKE3's (CC0 1.0 or Apache 2.0) from beside
# this script, since its npm tarball has no licence file.
mkdir -p "$out_dir/licenses"
for entry in "${SOURCES[@]}"; do
  spec=${entry%%|*}
  name=${spec%@*}
  if [[ $name == @c4312/blake3-native ]]; then
    cp "$here/blake3-1.3.1.LICENSE" "$out_dir/licenses/blake3-1.3.1.LICENSE"
  else
    cp "$src/$name/LICENSE" "$out_dir/licenses/${spec/@/-}.LICENSE"
  fi
done
# -z nodelete: the library is never unloaded while a thread still holds its arena (whose exit
# destructor is in it; prism_tree_sitter.c).
"$cc" -shared -g0 -Wl,--build-id=none -Wl,-z,nodelete -o "$lib.part" "${objects[@]}" -lpthread \
  2>>"$log" || degrade "$cc failed to link it"
mv "$lib.part" "$lib"
