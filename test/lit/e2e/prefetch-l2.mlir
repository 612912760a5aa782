// txl.prefetch_l2 is NVVM's cp.async.bulk.prefetch (the intrinsic
// llvm.nvvm.cp.async.bulk.prefetch.L2), not inline PTX: one
// cp.async.bulk.prefetch.L2.global per call, skipped by a branch where its
// predicate (lane 0 of each warp) or the `if` around it (thread 0) does
// not hold; the byte count is a register (4608 from the constexpr, n * 16
// at run time). The bad calls are located errors
// (test/bad/semantic/txl_prefetch_l2_*.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/prefetch_l2.py --kernel-name prefetch_rows --signature "*bf16:16, *i32:16, i32, i32, 4608" --target sm_90a --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=TILE < %t/prefetch_rows.txlgir
// RUN: FileCheck %s < %t/prefetch_rows.ptx
// RUN: grep -c "cp.async.bulk.prefetch.L2.global" %t/prefetch_rows.ptx | FileCheck %s --check-prefix=COUNT
// TILE: txlgpu.prefetch_l2 %{{.*}}, %{{.*}}, %{{.*}} : !txl.ptr<bf16>
// TILE: txlgpu.prefetch_l2 %{{.*}}, %{{.*}} : !txl.ptr<bf16>
// CHECK: mov.u32 %r[[LANE:[0-9]+]], %laneid;
// CHECK: setp.ne.b32 %p[[NOT0:[0-9]+]], %r[[LANE]], 0;
// CHECK: @%p[[NOT0]] bra $L__BB0_[[AFTER:[0-9]+]];
// CHECK-NOT: inline asm
// CHECK: mov.b32 %r[[ROW:[0-9]+]], 4608;
// CHECK-NOT: inline asm
// CHECK: cp.async.bulk.prefetch.L2.global [%rd{{[0-9]+}}], %r[[ROW]];
// CHECK-NEXT: $L__BB0_[[AFTER]]:
// CHECK: @%p{{[0-9]+}} bra $L__BB0_[[AFTER2:[0-9]+]];
// CHECK-NOT: inline asm
// CHECK: shl.b32 %r[[N16:[0-9]+]], %r{{[0-9]+}}, 4;
// CHECK-NOT: inline asm
// CHECK: cp.async.bulk.prefetch.L2.global [%rd{{[0-9]+}}], %r[[N16]];
// CHECK-NEXT: $L__BB0_[[AFTER2]]:
// COUNT: 2
