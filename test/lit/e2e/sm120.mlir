// End-to-end: sm_120a (GeForce/RTX Blackwell) is a target with TMA,
// mbarrier transactions and mma.sync, but neither wgmma nor tcgen05
// (docs/blackwell.md). Plain kernels and TMA kernels compile, their dots
// are mma.sync as on sm_80, and ptxas assembles them for sm_120a (there is
// no sm_120 GPU here: nothing runs them). A CTA may have 99 KB of shared
// memory there, not Hopper's 227 KB. The wgmma/tcgen05-only builtins are
// located errors naming the target (test/bad/semantic/sm120_*.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %examples/vector_add.py --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024" --target sm_120a --out-dir %t/va > /dev/null
// RUN: FileCheck %s --check-prefix=VADD < %t/va/add_kernel.ptx
// VADD: .target sm_120a
// VADD: ld.global.v4.b32
// RUN: txlc %examples/fused_softmax.py --kernel-name softmax_kernel --signature "*fp32:16, *fp32:16, i32:16, i32:16, i32, i32, 1024, 1" --target sm_120a --out-dir %t/sm > /dev/null
// RUN: txlc %examples/layer_norm.py --kernel-name _layer_norm_fwd --signature "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32, fp32, 1024" --target sm_120a --out-dir %t/ln > /dev/null
// RUN: txlc %examples/matmul.py --kernel-name matmul_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 64, 64, 32, 8" --target sm_120a --out-dir %t/mm > /dev/null
// RUN: FileCheck %s --check-prefix=MATMUL < %t/mm/matmul_kernel.ptx
// MATMUL: .target sm_120a
// MATMUL-NOT: wgmma
// MATMUL-NOT: tcgen05
// MATMUL: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MATMUL-NOT: wgmma
// MATMUL-NOT: tcgen05
//
// Step 4 of the GEMM ladder with a register dot: both operand tiles come by
// TMA under one expect of (64 + 64) * 32 * 2 = 8192 bytes, the dot is
// mma.sync, the fp16 tile leaves by a TMA store after the async-proxy fence.
// RUN: txlc %S/../Inputs/sm120.py --kernel-name tma_gemm --signature "tensordesc<fp16[64, 32]>, tensordesc<fp16[64, 32]>, tensordesc<fp16[64, 64]>, i32, 64, 64, 32" --num-warps 4 --target sm_120a --out-dir %t/gemm > /dev/null
// RUN: FileCheck %s --check-prefix=GEMM < %t/gemm/tma_gemm.ptx
// RUN: FileCheck %s --check-prefix=GEMMWAIT < %t/gemm/tma_gemm.ptx
// RUN: FileCheck %s --check-prefix=GEMMJSON < %t/gemm/tma_gemm.json
// GEMM: .target sm_120a
// GEMM-NOT: wgmma
// GEMM: mbarrier.init.shared.b64 [%r{{[0-9]+}}], 1;
// GEMM: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 8192;
// GEMM-COUNT-2: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// GEMM: fence.proxy.async.shared::cta;
// GEMM: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// GEMM: cp.async.bulk.wait_group.read 0;
// GEMM-NOT: wgmma
// The loop's blocks are laid out in no fixed order: these are checked apart.
// GEMMWAIT-DAG: mbarrier.try_wait.parity.shared::cta.b64
// GEMMWAIT-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GEMMJSON: "block": [
// GEMMJSON-NEXT: 64,
// GEMMJSON-NEXT: 32
// GEMMJSON: "box": [
// GEMMJSON-NEXT: 64,
// GEMMJSON-NEXT: 32
// GEMMJSON: "swizzle": 64,
//
// A two-stage TMA copy ring (dynamic stage index and parity).
// RUN: txlc %S/../Inputs/sm120.py --kernel-name tma_copy_ring --signature "tensordesc<fp32[64, 32]>, tensordesc<fp32[64, 32]>, i32, 64, 32" --num-warps 4 --target sm_120a --out-dir %t/ring > /dev/null
// RUN: FileCheck %s --check-prefix=RING < %t/ring/tma_copy_ring.ptx
// RING: mbarrier.arrive.expect_tx.shared.b64 _, [%r{{[0-9]+}}], 8192;
// RING: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// RING: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
//
// A TMA gather: sm_120a has no tile::gather4, so each row is one copy (the
// sm_90 form), and rows narrower than 128 bytes are a located error.
// RUN: txlc %S/../../gpu/txl_kernels_gather.py --kernel-name gather_rows --signature "tensordesc<fp16[1, 64]>, *i32:16, *fp16:16, i32, 64, 64, tl.float16" --target sm_120a --out-dir %t/gather > /dev/null
// RUN: FileCheck %s --check-prefix=GATHER < %t/gather/gather_rows.ptx
// GATHER: .target sm_120a
// GATHER-NOT: gather4
// GATHER: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// GATHER-NOT: gather4
// RUN: not txlc %S/../Inputs/tma_gather_errors.py --kernel-name narrow --signature "tensordesc<fp16[1, 32]>, *i32:16" --target sm_120a --out-dir %t/gbad 2>&1 | FileCheck %s --check-prefix=NARROW
// NARROW: tma_gather_errors.py:14:5: error: txl.tma_gather: on sm_120a every row is one TMA copy, whose shared destination must be 128-byte aligned
//
// Warpgroup roles with setmaxnreg (ptxas accepts it for sm_120a) and a
// 2-CTA cluster with a multicast TMA load and remote arrivals.
// RUN: txlc %examples/warpgroup_handoff.py --kernel-name warpgroup_handoff --signature "*fp32:16, *fp32:16, i32, 1024" --num-warps 4 --num-warpgroups 2 --target sm_120a --out-dir %t/wg > /dev/null
// RUN: FileCheck %s --check-prefix=REGS < %t/wg/warpgroup_handoff.ptx
// REGS: setmaxnreg
// RUN: txlc %S/../../gpu/txl_kernels_cluster.py --kernel-name cluster_gather --signature "tensordesc<fp16[64, 64]>, *fp16, 2, 64, 64" --num-ctas 2 --target sm_120a --out-dir %t/cl > /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=CLUSTER < %t/cl/cluster_gather.ptx
// CLUSTER: barrier.cluster.arrive.aligned;
// CLUSTER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
//
// ptxas (CUDA 12.8+ knows sm_120a) assembles every kernel above.
// RUN: sh -c 'if command -v ptxas > /dev/null; then for f in %t/va/add_kernel %t/sm/softmax_kernel %t/ln/_layer_norm_fwd %t/mm/matmul_kernel %t/gemm/tma_gemm %t/ring/tma_copy_ring %t/gather/gather_rows %t/wg/warpgroup_handoff %t/cl/cluster_gather; do ptxas -arch=sm_120a $f.ptx -o $f.ptxas.cubin || exit 1; done; fi'
//
// 128 KiB of shared memory fits sm_90a but not an sm_120a CTA.
// RUN: not txlc %S/../Inputs/sm120.py --kernel-name smem_128k --signature "*fp32" --target sm_120a --out-dir %t/big 2>&1 | FileCheck %s --check-prefix=SMEM
// SMEM: sm120.py:{{[0-9]+}}:1: error: kernel 'smem_128k' needs 131072 bytes of shared memory, more than the 101376 a CTA can have on sm_120a
// RUN: txlc %S/../Inputs/sm120.py --kernel-name smem_128k --signature "*fp32" --target sm_90a --no-cubin --out-dir %t/big90 > /dev/null
//
// The GEMM ladder's wgmma step is a located error naming the target.
// RUN: not txlc %tutorials/gemm/step04_tma.py --kernel-name gemm_step04 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>, i32, 128, 128, 64" --target sm_120a --out-dir %t/s4 2>&1 | FileCheck %s --check-prefix=WGMMA
// WGMMA: step04_tma.py:{{[0-9]+}}:{{[0-9]+}}: error: tl.dot on shared buffers needs sm_90a (wgmma), but the target is sm_120a (GeForce Blackwell: no wgmma or tcgen05;
