#!/usr/bin/env bash
# Builds the parser fuzz target with libFuzzer + AddressSanitizer +
# UndefinedBehaviorSanitizer (needs clang with its compiler-rt, e.g.
# `apt-get install -y clang-14 libclang-rt-14-dev`). Output: $OUT (default
# build-fuzz/txl-parser-libfuzzer). Usage: test/fuzz/build-libfuzzer.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
CXX=${CXX:-$(command -v clang++-14 || command -v clang++)}
OUT=${OUT:-build-fuzz/txl-parser-libfuzzer}
LLVM_INCLUDE=${LLVM_INCLUDE:-$(llvm-config-22 --includedir)}
mkdir -p "$(dirname "$OUT")"
"$CXX" -std=c++17 -O1 -g -fno-omit-frame-pointer -fexceptions \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Iinclude -I"$LLVM_INCLUDE" \
  test/fuzz/ParserFuzzer.cpp lib/Frontend/AST.cpp lib/Frontend/Diagnostics.cpp \
  lib/Frontend/Lexer.cpp lib/Frontend/Parser.cpp -o "$OUT"
echo "$OUT"
