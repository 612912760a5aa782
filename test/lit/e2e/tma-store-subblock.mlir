// txl.tma_store of a buffer covering part of the descriptor's block (issue
// 13 point 4): all rows, whole 128-byte boxes of columns. Two [64, 256]
// bf16 halves of a [64, 512] block are 2 x 4 box copies (box [64, 64]).
// RUN: txlc %S/../Inputs/tma_store_subblock.py --kernel-name store_halves --signature "tensordesc<bf16[64, 512]>, i32" --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/store_halves.ptx
// PTX-COUNT-8: cp.async.bulk.tensor.2d.global.shared::cta
// RUN: FileCheck %s --check-prefix=META < %t/store_halves.json
// META: "box": [
// META-NEXT: 64,
// META-NEXT: 64
// RUN: not txlc %S/../Inputs/tma_store_subblock.py --kernel-name store_narrow --signature "tensordesc<bf16[64, 512]>, i32" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=NARROW
// NARROW: tma_store_subblock.py:21:5: error: txl.tma_store: the buffer shared buffer <[64, 32], bf16> covers part of the descriptor's block tensor descriptor <[64, 512], bf16>; a partial store needs all of the block's rows and a width that divides the block's and is a multiple of 128 bytes (whole TMA boxes), got rows of 64 bytes
// RUN: not txlc %S/../Inputs/tma_store_subblock.py --kernel-name store_fewer_rows --signature "tensordesc<bf16[64, 512]>, i32" --target sm_90a --out-dir %t --no-cubin 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: tma_store_subblock.py:27:5: error: txl.tma_store: the buffer shared buffer <[32, 512], bf16> does not match the descriptor's block
