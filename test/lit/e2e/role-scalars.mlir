// Scalar stores and atomics in roles (test/gpu/txl_kernels_role_scalars.py)
// are one thread's work: thread 0 outside roles, else lane 0 of the role's
// first warp (txlgpu.issuer_warp on the op; ExtraWarps.h
// scalarPerformerThread). Thread 0 does not run warpgroup 1's or 2's
// branch, so there the performer is thread 128 or 256.
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../../gpu/txl_kernels_role_scalars.py --kernel-name role_scalars --signature "*i32:16, *i32:16" --num-warps 4 --num-warpgroups 3 --target sm_90a --out-dir %t/wg > /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t/wg/role_scalars.txlir
// IR: txl.store
// IR-NOT: txlgpu.issuer_warp
// IR: txl.store {{.*}}txlgpu.issuer_warp = 4 : i32
// IR: txl.atomic_rmw "add"{{.*}}txlgpu.issuer_warp = 4 : i32
// IR: txl.store {{.*}}txlgpu.issuer_warp = 4 : i32
// IR: txl.atomic_rmw "add"{{.*}}txlgpu.issuer_warp = 8 : i32
// IR: txl.atomic_cas {{.*}}txlgpu.issuer_warp = 8 : i32
// IR: txl.store {{.*}}txlgpu.issuer_warp = 8 : i32
// RUN: FileCheck %s --check-prefix=PTX < %t/wg/role_scalars.ptx
// PTX-DAG: setp.eq.b32 {{.*}}, 128;
// PTX-DAG: setp.eq.b32 {{.*}}, 256;
// PTX-DAG: @p atom.global.gpu.acq_rel.add.u32
// PTX-DAG: @p atom.global.acq_rel.gpu.cas.b32
//
// A warp role: warp 2's branch is performed by thread 64, its else branch
// (warps 0, 1, 3) by thread 0.
// RUN: txlc %S/../../gpu/txl_kernels_role_scalars.py --kernel-name warp_role_scalars --signature "*i32:16, *i32:16" --num-warps 4 --target sm_90a --out-dir %t/w > /dev/null
// RUN: FileCheck %s --check-prefix=WARP < %t/w/warp_role_scalars.txlir
// WARP: txl.store {{.*}}txlgpu.issuer_warp = 2 : i32
// WARP: txl.atomic_rmw "add"{{.*}}txlgpu.issuer_warp = 2 : i32
// WARP: txl.atomic_rmw "add"
// WARP-NOT: issuer_warp
