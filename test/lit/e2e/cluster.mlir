// Thread-block clusters (num_ctas): a program is a cluster, so program_id
// and num_programs read the cluster registers and cta_rank the rank in it;
// the launch metadata carries the cluster dims. tma_load(multicast=) is a
// .multicast::cluster bulk copy into a shared::cluster address;
// mbar_arrive(cta_id=) maps the barrier into the peer CTA (mapa) and
// arrives (CTA-scope release, as a cluster-scope one stalls the warp). The compiler syncs the cluster after
// mbarrier init (aligned) and before exit (not aligned: roles may reach
// the end apart).
// RUN: txlc %S/../../gpu/txl_kernels_cluster.py --kernel-name cluster_ids --signature "*i32" --num-ctas 4 --target sm_90a --out-dir %t --no-cubin
// RUN: FileCheck %s --check-prefix=IDS < %t/cluster_ids.ptx
// RUN: FileCheck %s --check-prefix=META < %t/cluster_ids.json
// IDS-DAG: %clusterid.x
// IDS-DAG: %nclusterid.x
// IDS-DAG: %cluster_ctarank
// IDS-DAG: %ctaid.x
// IDS: barrier.cluster.arrive;
// IDS-NEXT: barrier.cluster.wait;
// META: "cluster_dims": [
// META-NEXT: 4,
// META-NEXT: 1,
// META-NEXT: 1
//
// RUN: txlc %S/../../gpu/txl_kernels_cluster.py --kernel-name cluster_gather --signature "tensordesc<fp16[64, 64]>, *fp16, 2, 64, 64" --num-ctas 2 --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=MCAST < %t/cluster_gather.ptx
// MCAST: fence.mbarrier_init.release.cluster;
// MCAST: barrier.cluster.arrive.aligned;
// MCAST-NEXT: barrier.cluster.wait.aligned;
// MCAST: mbarrier.arrive.expect_tx.shared.b64 _, [{{.*}}], 16384;
// MCAST: mov.b16 [[MC:%rs[0-9]+]], 3;
// MCAST: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{.*}}], [{{.*}}], [{{.*}}], [[MC]];
//
// RUN: txlc %S/../../gpu/txl_kernels_cluster.py --kernel-name cluster_remote_arrive --signature "*i32, 8" --num-ctas 2 --target sm_90a --out-dir %t
// RUN: FileCheck %s --check-prefix=REMOTE < %t/cluster_remote_arrive.ptx
// REMOTE: mapa.shared::cluster.u64 [[PEER:%rd[0-9]+]], {{%rd[0-9]+}}, {{%r[0-9]+}};
// REMOTE: mbarrier.arrive.shared::cluster.b64 _, [[[PEER]]]
//
// Ladder step 9 compiles (ptxas included) with the B-half descriptor.
// RUN: txlc %tutorials/gemm/step09_cluster_multicast.py --kernel-name gemm_step09 --signature "tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8, 4" --num-warps 4 --num-warpgroups 3 --num-ctas 2 --target sm_90a --out-dir %t/s9 > /dev/null
// RUN: grep -c "multicast::cluster" %t/s9/gemm_step09.ptx | FileCheck %s --check-prefix=STEP9
// STEP9: 2
//
// Misuse: multicast or a remote arrival without a cluster, a mask or a
// rank outside it, a cluster too large.
// RUN: not txlc %S/../Inputs/cluster_errors.py --kernel-name multicast_without_cluster --signature "tensordesc<fp16[64, 64]>, 1" --target sm_90a --out-dir %t 2>&1 | FileCheck %s --check-prefix=NOCLUSTER
// NOCLUSTER: cluster_errors.py:10:5: error: txl.tma_load: multicast needs a cluster, but the kernel is launched with num_ctas = 1
// RUN: not txlc %S/../Inputs/cluster_errors.py --kernel-name mask_outside_cluster --signature "tensordesc<fp16[64, 64]>" --num-ctas 2 --target sm_90a --out-dir %t 2>&1 | FileCheck %s --check-prefix=MASK
// MASK: cluster_errors.py:18:5: error: txl.tma_load: multicast mask 4 must name CTAs of the cluster (bits 0..1, at least one)
// RUN: not txlc %S/../Inputs/cluster_errors.py --kernel-name remote_arrive_outside_cluster --signature "" --num-ctas 2 --target sm_90a --out-dir %t 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not txlc %S/../Inputs/cluster_errors.py --kernel-name remote_arrive_outside_cluster --signature "" --num-ctas 9 --target sm_90a --out-dir %t 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not txlc %S/../Inputs/cluster_errors.py --kernel-name remote_arrive_outside_cluster --signature "" --num-ctas 2 --target sm_80 --out-dir %t 2>&1 | FileCheck %s --check-prefix=AMPERE
// RANK: cluster_errors.py:24:5: error: txl.mbar_arrive: cta_id 2 is outside the cluster of num_ctas = 2
// SIZE: cluster_errors.py:22:1: error: num_ctas must be between 1 and 8 (a portable cluster), got 9
// AMPERE: cluster_errors.py:22:1: error: num_ctas = 2 (thread-block clusters) needs sm_90 or later, but the target is sm_80
