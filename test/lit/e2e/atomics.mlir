// tl.atomic_*: one predicated `atom` per element with the PTX memory order
// and scope; float max/min are a signed max where val >= 0 and an unsigned
// min elsewhere; 16-bit float adds use the noftz forms; a scalar atomic is
// done by one thread (thread 0 outside roles: role-scalars.mlir) and its
// old value reaches every thread through shared scratch between two
// barriers; a block smaller than the CTA is updated
// once per element.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_rmw_kernel --signature "*i32:16, *i32:16, *i32:16, *i32:16, i32, 'add', 'acq_rel', 256" --out-dir %t/add > /dev/null
// RUN: FileCheck %s --check-prefix=ADD < %t/add/atomic_rmw_kernel.ptx
// ADD-COUNT-2: @p atom.global.gpu.acq_rel.add.u32
// RUN: FileCheck %s --check-prefix=ADD-IR < %t/add/atomic_rmw_kernel.txlir
// ADD-IR: txl.atomic_rmw "add", {{.*}} {scope = "gpu", sem = "acq_rel"} : tensor<256x!txl.ptr<i32>>, tensor<256xi32>, tensor<256xi1> -> tensor<256xi32>
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_rmw_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *i32:16, i32, 'max', 'relaxed', 256" --out-dir %t/fmax > /dev/null
// RUN: FileCheck %s --check-prefix=FMAX < %t/fmax/atomic_rmw_kernel.ptx
// FMAX-DAG: atom.global.gpu.relaxed.max.s32
// FMAX-DAG: atom.global.gpu.relaxed.min.u32
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_rmw_kernel --signature "*fp64:16, *fp64:16, *fp64:16, *i32:16, i32, 'min', 'acquire', 256" --out-dir %t/dmin > /dev/null
// RUN: FileCheck %s --check-prefix=DMIN < %t/dmin/atomic_rmw_kernel.ptx
// DMIN-DAG: atom.global.gpu.acquire.min.s64
// DMIN-DAG: atom.global.gpu.acquire.max.u64
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_rmw_kernel --signature "*fp16:16, *fp16:16, *fp16:16, *i32:16, i32, 'add', 'release', 256" --out-dir %t/h > /dev/null
// RUN: FileCheck %s --check-prefix=HALF < %t/h/atomic_rmw_kernel.ptx
// HALF: atom.global.gpu.release.add.noftz.f16
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_rmw_kernel --signature "*bf16:16, *bf16:16, *bf16:16, *i32:16, i32, 'add', 'acq_rel', 256" --out-dir %t/bf > /dev/null
// RUN: FileCheck %s --check-prefix=BF16 < %t/bf/atomic_rmw_kernel.ptx
// BF16: atom.global.gpu.acq_rel.add.noftz.bf16
// RUN: not txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_rmw_kernel --signature "*bf16:16, *bf16:16, *bf16:16, *i32:16, i32, 'add', 'acq_rel', 256" --target sm_80 --out-dir %t/bf80 2>&1 | FileCheck %s --check-prefix=BF16-SM80
// BF16-SM80: error: tl.atomic_add on bf16 needs sm_90 or later, but the target is sm_80
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_rmw_kernel --signature "*i64:16, *i64:16, *i64:16, *i32:16, i32, 'xor', 'relaxed', 256" --target sm_80 --out-dir %t/x > /dev/null
// RUN: FileCheck %s --check-prefix=XOR < %t/x/atomic_rmw_kernel.ptx
// XOR: atom.global.gpu.relaxed.xor.b64
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_counter_kernel --signature "*i32:16, *i32:16" --out-dir %t/c > /dev/null
// RUN: FileCheck %s --check-prefix=SCALAR < %t/c/atomic_counter_kernel.ptx
// SCALAR: setp.eq.b32 {{.*}}, 0;
// SCALAR: @p atom.global.gpu.acq_rel.add.u32
// SCALAR: bar.sync 0;
// SCALAR: st.shared.b32
// SCALAR: bar.sync 0;
// SCALAR: ld.shared.b32
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_small_kernel --signature "*i32:16, *i32:16, 16" --out-dir %t/s > /dev/null
// RUN: FileCheck %s --check-prefix=SMALL < %t/s/atomic_small_kernel.ptx
// SMALL-COUNT-1: atom.global.gpu.acq_rel.add.u32
// SMALL-NOT: atom.
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_cas_lock_kernel --signature "*i32:16, *i32:16, 20" --out-dir %t/lock > /dev/null
// RUN: FileCheck %s --check-prefix=LOCK < %t/lock/atomic_cas_lock_kernel.ptx
// LOCK: atom.global.acq_rel.gpu.cas.b32
// LOCK: atom.global.gpu.acq_rel.exch.b32
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_cas_tensor_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, 256" --out-dir %t/cas > /dev/null
// RUN: FileCheck %s --check-prefix=CAS < %t/cas/atomic_cas_tensor_kernel.ptx
// CAS-COUNT-2: atom.global.acq_rel.gpu.cas.b32
// RUN: txlc %S/../../gpu/txl_kernels_tl_ops.py --kernel-name atomic_add_noret_kernel --signature "*fp32:16, *fp32:16, i32, 256" --out-dir %t/nr > /dev/null
// RUN: FileCheck %s --check-prefix=NORET < %t/nr/atomic_add_noret_kernel.ptx
// NORET-NOT: bar.sync
// NORET: atom.global.gpu.acq_rel.add.f32

// A scalar atomic whose old value is unused stays an `atom` (Triton emits
// one; ptxas turns a dead-result atom into a RED): 16-bit float adds and
// relaxed/release orders included. Only vector reds (sm_90 f32 adds of
// several elements) are spelled `red`.
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name atomic_scalar_noret_kernel --signature "*fp16:16, *fp16:16, 'add', 'relaxed'" --out-dir %t/sh > /dev/null
// RUN: FileCheck %s --check-prefix=NORET-H < %t/sh/atomic_scalar_noret_kernel.ptx
// NORET-H-NOT: red.
// NORET-H: atom.global.gpu.relaxed.add.noftz.f16
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name atomic_scalar_noret_kernel --signature "*bf16:16, *bf16:16, 'add', 'release'" --out-dir %t/sb > /dev/null
// RUN: FileCheck %s --check-prefix=NORET-B < %t/sb/atomic_scalar_noret_kernel.ptx
// NORET-B: atom.global.gpu.release.add.noftz.bf16
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name atomic_scalar_noret_kernel --signature "*i64:16, *i64:16, 'max', 'relaxed'" --out-dir %t/sm > /dev/null
// RUN: FileCheck %s --check-prefix=NORET-M < %t/sm/atomic_scalar_noret_kernel.ptx
// NORET-M: atom.global.gpu.relaxed.max.s64

// Float max/min pick the integer atomic by the sign bit (an integer
// compare of the bits), so -0.0 takes the unsigned side.
// RUN: txlc %S/../../gpu/txl_kernels_tcore.py --kernel-name atomic_float_minmax_kernel --signature "*fp32:16, *fp32:16, *fp32:16, 7" --out-dir %t/mm > /dev/null
// RUN: FileCheck %s --check-prefix=SIGN < %t/mm/atomic_float_minmax_kernel.txlir
// SIGN: arith.cmpi sge, [[BITS:%[0-9]+]], %c0_i32 : i32
// SIGN: txl.atomic_rmw "max", {{.*}}, [[BITS]]
// SIGN: txl.atomic_rmw "umin", {{.*}}, [[BITS]]
