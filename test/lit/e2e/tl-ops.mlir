// The tl operations built from element-wise ops (test/gpu/txl_kernels_tl_ops.py):
// Philox rounds are 32x32->64 multiplies whose high half PTX takes as
// mul.hi (64-bit offsets: mul.hi.u64); the seed's high word is a logical
// shift of the sign-extended seed; tl.join/interleave compile on both
// targets; tl.debug_barrier is bar.sync 0.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name randint_kernel --signature "*i32:16, i32, i32, 1024" --target sm_90a --out-dir %t/ri > /dev/null
// RUN: FileCheck %s --check-prefix=RANDINT-IR < %t/ri/randint_kernel.txlir
// RUN: FileCheck %s --check-prefix=RANDINT < %t/ri/randint_kernel.ptx
// RANDINT-IR: arith.constant -845247145 : i32
// RANDINT-IR: arith.constant -766435501 : i32
// RANDINT-IR: %[[SEED:.*]] = arith.extsi %arg1 : i32 to i64
// RANDINT-IR: arith.shrui %[[SEED]]
// RANDINT: mul.hi.u32
// RANDINT: xor.b32
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name randint64_kernel --signature "*i64:16, i64, i32, 256" --target sm_90a --out-dir %t/r64 > /dev/null
// RUN: FileCheck %s --check-prefix=RANDINT64 < %t/r64/randint64_kernel.ptx
// RANDINT64: mul.hi.u64
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name randint4x_kernel --signature "*i32:16, *i32:16, *i32:16, *i32:16, i64, i32, 7, 256" --target sm_80 --out-dir %t/r4 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name rand_kernel --signature "*fp32:16, *fp32:16, i32, i32, 512" --target sm_90a --out-dir %t/rand > /dev/null
// RUN: FileCheck %s --check-prefix=RAND < %t/rand/rand_kernel.ptx
// RAND: cvt.rn.f32.s32
// RAND: lg2.approx
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name rand_2d_kernel --signature "*fp32:16, i32, i32, i32, i32, 32, 64" --target sm_90a --out-dir %t/r2 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name join_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32, 256" --target sm_90a --out-dir %t/j > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name join_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32, 256" --target sm_80 --out-dir %t/j80 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name interleave_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 32, 16" --target sm_90a --out-dir %t/il > /dev/null
// RUN: FileCheck %s --check-prefix=INTERLEAVE < %t/il/interleave_kernel.txlir
// INTERLEAVE: txl.make_range {end = 2 : i32, start = 0 : i32}
// INTERLEAVE: arith.select {{.*}} : tensor<16x32x2xi1>, tensor<16x32x2xf32>
// INTERLEAVE: txl.reshape {{.*}} : tensor<16x32x2xf32> -> tensor<16x64xf32>
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name debug_barrier_kernel --signature "*fp32:16, *fp32:16, 256" --target sm_90a --out-dir %t/db > /dev/null
// RUN: FileCheck %s --check-prefix=BARRIER < %t/db/debug_barrier_kernel.ptx
// BARRIER: bar.sync 0
// BARRIER: ld.volatile.global
// BARRIER: bar.sync 0
// tl.flip of a 1024-element vector: ten size-2 axes, each swapped by an
// xor_sum over it (the elements' bits as i32) and an xor.
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name flip_1d_kernel --signature "*fp32:16, *fp32:16, 1024" --out-dir %t/flip > /dev/null
// RUN: FileCheck %s --check-prefix=FLIP < %t/flip/flip_1d_kernel.txlir
// FLIP: txl.bitcast {{.*}} : tensor<1024xf32> -> tensor<1024xi32>
// FLIP: txl.reshape {{.*}} : tensor<1024xi32> -> tensor<2x2x2x2x2x2x2x2x2x2xi32>
// FLIP-COUNT-10: arith.xori
// FLIP: txl.reshape {{.*}} -> tensor<1024xi32>
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name flip_kernel --signature "*i8:16, *i8:16, i32, 256, 16, -1" --target sm_80 --out-dir %t/flip8 > /dev/null
// libdevice functions without an NVVM instruction call __nv_* (linked
// from libdevice.10.bc at the target stage, so no extern call is left).
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name libdevice_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 'asin', 512" --out-dir %t/asin > /dev/null
// RUN: FileCheck %s --check-prefix=LIBDEVICE < %t/asin/libdevice_kernel.ptx
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name libdevice_kernel --signature "*fp64:16, *fp64:16, *fp64:16, i32, 'atan2', 512" --target sm_80 --out-dir %t/atan2 > /dev/null
// RUN: FileCheck %s --check-prefix=LIBDEVICE < %t/atan2/libdevice_kernel.ptx
// LIBDEVICE-NOT: .extern .func
// LIBDEVICE: .entry libdevice_kernel
// LIBDEVICE-NOT: call{{.*}}__nv_
