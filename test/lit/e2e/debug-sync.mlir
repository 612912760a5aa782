// TXL_DEBUG_SYNC (txlc --debug-sync): every mbarrier wait is a loop of
// single try_wait probes bounded by %globaltimer; past the bound the first
// timed-out thread claims the host-mapped record (system-scope CAS through
// the pointer in the global __txl_debug_record), writes the wait's line and
// column, fences and traps. Without the option the wait is the plain
// hardware-suspending loop and none of this exists.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_debug.py --kernel-name never_arrives --signature "*fp32:16" --num-warps 4 --target sm_90a --out-dir %t/dbg --debug-sync > /dev/null
// RUN: FileCheck %s < %t/dbg/never_arrives.ptx
// RUN: FileCheck %s --check-prefix=META < %t/dbg/never_arrives.json
// RUN: txlc %S/../../gpu/txl_kernels_debug.py --kernel-name never_arrives --signature "*fp32:16" --num-warps 4 --target sm_90a --out-dir %t/plain > /dev/null
// RUN: FileCheck %s --check-prefix=PLAIN < %t/plain/never_arrives.ptx
// CHECK: .visible .global .align 8 .u64 __txl_debug_record;
// CHECK: mov.u64 %[[START:rd[0-9]+]], %globaltimer;
// CHECK: [[PROBE:\$L__BB0_[0-9]+]]:
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 p, [%r{{d?[0-9]+}}], %r{{[0-9]+}}; selp.u32
// CHECK: mov.u64 %[[NOW:rd[0-9]+]], %globaltimer;
// CHECK: sub.s64 %[[EL:rd[0-9]+]], %[[NOW]], %[[START]];
// CHECK: setp.lt.u64 %p{{[0-9]+}}, %[[EL]], 5000000001;
// CHECK: ld.global.b64 %[[REC:rd[0-9]+]], [__txl_debug_record];
// CHECK: atom.relaxed.sys.cas.b32 %r{{[0-9]+}}, [%[[REC]]], 0, 1;
// CHECK: st.volatile.b32 [%[[REC]]+4], 12;
// CHECK: st.volatile.b32 [%[[REC]]+8], 5;
// CHECK: fence.sc.sys;
// CHECK: trap;
// META: "debug_sync": true
// PLAIN-NOT: globaltimer
// PLAIN-NOT: __txl_debug_record
// PLAIN: mbarrier.try_wait.parity
// PLAIN-NOT: trap;
