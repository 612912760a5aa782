// The compiler's per-warpgroup barriers (group g waits at top - g) keep
// clear of the named barriers the kernel itself uses: with ids 15 and 14
// taken, two warpgroups get 13 and 12 (LLVM folds 13 - g to 13 xor g);
// with 8 and 9 taken, the defaults 15 and 14 stay. The kernel's own
// barriers are the non-aligned barrier.sync / barrier.arrive, the
// compiler's the aligned bar.sync. No free run of ids is a located error
// (test/bad/semantic/named_barrier_ids_exhausted.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/named_barrier_ids.py --kernel-name user_ids_15_14 --signature "*fp32" --num-warpgroups 2 --target sm_90a --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=TAKEN < %t/user_ids_15_14.ptx
// RUN: txlc %S/../Inputs/named_barrier_ids.py --kernel-name user_ids_8_9 --signature "*fp32" --num-warpgroups 2 --target sm_90a --out-dir %t > /dev/null
// RUN: FileCheck %s --check-prefix=CLEAR < %t/user_ids_8_9.ptx
// TAKEN: barrier.sync 15, 128;
// TAKEN: barrier.sync 14, 256;
// TAKEN: xor.b32 %r[[ID:[0-9]+]], %r{{[0-9]+}}, 13;
// TAKEN-NEXT: bar.sync %r[[ID]], 128;
// CLEAR: barrier.sync 8, 256;
// CLEAR: barrier.arrive 9, 256;
// CLEAR: xor.b32 %r[[ID:[0-9]+]], %r{{[0-9]+}}, 15;
// CLEAR-NEXT: bar.sync %r[[ID]], 128;
