// tl.store of a txl.relayout result writes from the pinned layout: the
// pointers follow the value (recomputed in its layout), nothing moves
// through shared scratch. A wgmma accumulator stored this way is written
// by the threads that hold it (pairs of fp16: 4-byte stores). Without the
// relayout the accumulator moves to the store's coalesced layout through
// scratch (16-byte stores).
// RUN: rm -rf %t && mkdir -p %t
// RUN: txlc %S/../Inputs/relayout_store.py --kernel-name store_acc --signature "tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, *fp16:16, 1" --target sm_90a --out-dir %t/pinned > /dev/null
// RUN: FileCheck %s --check-prefix=PINNED < %t/pinned/store_acc.txlgir
// RUN: FileCheck %s --check-prefix=PINNED-PTX < %t/pinned/store_acc.ptx
// RUN: txlc %S/../Inputs/relayout_store.py --kernel-name store_acc --signature "tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 128]>, *fp16:16, 0" --target sm_90a --out-dir %t/free > /dev/null
// RUN: FileCheck %s --check-prefix=FREE < %t/free/store_acc.txlgir
// PINNED-NOT: convert_layout {{.*}}shared_offset
// PINNED: txl.store {{.*}} : tensor<64x128x!txl.ptr<f16>, #txlgpu.nvmma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>, tensor<64x128xf16, #txlgpu.nvmma
// PINNED-PTX: st.global.b32
// PINNED-PTX-NOT: st.global.v4
// FREE: convert_layout {{.*}}shared_offset{{.*}}tensor<64x128xf16, #txlgpu.nvmma{{.*}} -> tensor<64x128xf16, #txlgpu.blocked
// FREE: txl.store {{.*}}#txlgpu.blocked
