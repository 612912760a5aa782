// The second batch of tl operations (test/gpu/txl_kernels_more.py), each
// compiled through ptxas.
// RUN: rm -rf %t && mkdir -p %t
//
// tl.gather: the source goes to shared scratch row-major and each thread
// reads the rows its own index registers name (result in the indices'
// layout), between two barriers; the index wraps to the axis (the mask
// folds into the row offset: 63 * 32 = 2016).
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name gather_2d_kernel --signature "*fp32:16, *i32:16, *fp32:16, i32, i32, i32, 0, 64, 32, 16" --out-dir %t/g > /dev/null
// RUN: FileCheck %s --check-prefix=GATHER-IR < %t/g/gather_2d_kernel.txlir
// RUN: FileCheck %s --check-prefix=GATHER-GIR < %t/g/gather_2d_kernel.txlgir
// RUN: FileCheck %s --check-prefix=GATHER < %t/g/gather_2d_kernel.ptx
// GATHER-IR: txl.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<64x32xf32>, tensor<16x32xi32> -> tensor<16x32xf32>
// GATHER-GIR: txl.gather {{.*}}txlgpu.shared_offset = 0
// GATHER-GIR-SAME: tensor<16x32xi32, [[IDX:#txlgpu.blocked<[^>]*>]]> -> tensor<16x32xf32, [[IDX]]>
// GATHER: bar.sync
// GATHER: st.shared.b32
// GATHER: bar.sync
// GATHER: and.b32 {{.*}}, 2016;
// GATHER: ld.shared.b32
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name gather_2d_kernel --signature "*i8:16, *i64:16, *i8:16, i32, i32, i32, 1, 16, 128, 128" --target sm_80 --out-dir %t/g8 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name gather_1d_kernel --signature "*fp32:16, *i32:16, *fp32:16, i32, i32, 1024, 8" --out-dir %t/g1 > /dev/null
//
// tl.inline_asm_elementwise: the asm text verbatim, once per pack; pack=4
// of int8 takes one .b32 built from four bytes.
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name asm_shift_kernel --signature "*i32:16, *i32:16, i32, 256" --out-dir %t/a > /dev/null
// RUN: FileCheck %s --check-prefix=ASM-IR < %t/a/asm_shift_kernel.txlir
// RUN: FileCheck %s --check-prefix=ASM < %t/a/asm_shift_kernel.ptx
// ASM-IR: txl.elementwise_inline_asm "shl.b32 $0, $1, 3;"({{.*}}) {constraints = "=r,r", packed_element = 1 : i32, pure = true} : (tensor<256xi32>) -> tensor<256xi32>
// ASM: shl.b32 {{.*}}, 3;
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name asm_widen_i8_kernel --signature "*i8:16, *i32:16, i32, 1024" --out-dir %t/a8 > /dev/null
// RUN: FileCheck %s --check-prefix=PACK4 < %t/a8/asm_widen_i8_kernel.llir
// PACK4: call { i32, i32, i32, i32 } asm "{{.*}}cvt.s32.s8{{.*}}", "=r,=r,=r,=r,r"(<4 x i8>
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name asm_two_results_kernel --signature "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, 512" --target sm_80 --out-dir %t/a2 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name asm_half2_kernel --signature "*fp16:16, *fp16:16, i32, fp32, 512" --out-dir %t/ah > /dev/null
// RUN: FileCheck %s --check-prefix=HALF2 < %t/ah/asm_half2_kernel.ptx
// HALF2: mul.rn.f16x2
//
// libdevice functions without a math op: txl.extern_elementwise of the
// __nv_* function for the argument dtypes, linked from libdevice (no
// extern call is left); isnan is int1 like Triton's.
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name libdevice_more_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 'erfinv', 512" --out-dir %t/erfinv > /dev/null
// RUN: FileCheck %s --check-prefix=ERFINV < %t/erfinv/libdevice_more_kernel.txlir
// RUN: FileCheck %s --check-prefix=LINKED < %t/erfinv/libdevice_more_kernel.ptx
// ERFINV: txl.extern_elementwise "__nv_erfinvf"(%{{.*}}) : (tensor<512xf32>) -> tensor<512xf32>
// LINKED-NOT: .extern .func
// LINKED: .entry libdevice_more_kernel
// LINKED-NOT: call{{.*}}__nv_
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name libdevice_more_kernel --signature "*fp64:16, *i32:16, *fp64:16, i32, 'ldexp', 512" --target sm_80 --out-dir %t/ldexp > /dev/null
// RUN: FileCheck %s --check-prefix=LDEXP < %t/ldexp/libdevice_more_kernel.txlir
// LDEXP: txl.extern_elementwise "__nv_ldexp"(%{{.*}}, %{{.*}}) : (tensor<512xf64>, tensor<512xi32>) -> tensor<512xf64>
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name libdevice_more_kernel --signature "*fp64:16, *fp64:16, *i32:16, i32, 'isnan', 512" --out-dir %t/isnan > /dev/null
// RUN: FileCheck %s --check-prefix=ISNAN < %t/isnan/libdevice_more_kernel.txlir
// ISNAN: %[[R:.*]] = txl.extern_elementwise "__nv_isnand"(%{{.*}}) : (tensor<512xf64>) -> tensor<512xi32>
// ISNAN: arith.cmpi ne, %[[R]]
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name libdevice_more_kernel --signature "*i64:16, *i64:16, *i32:16, i32, 'popc', 256" --out-dir %t/popc > /dev/null
// RUN: FileCheck %s --check-prefix=POPC < %t/popc/libdevice_more_kernel.ptx
// POPC: popc.b64
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name libdevice_more_kernel --signature "*i32:16, *i32:16, *i32:16, i32, 'brev', 256" --out-dir %t/brev > /dev/null
// RUN: FileCheck %s --check-prefix=BREV < %t/brev/libdevice_more_kernel.ptx
// BREV: brev.b32
// libdevice.exp2 is __nv_exp2f, which under nvvm-reflect-ftz = 1 (Triton's
// default) is one ex2.approx.ftz; so is fp32 tl.exp2, as in Triton. Without
// reflect-ftz both are ex2.approx (subnormals kept).
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name libdevice_more_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 'exp2', 512" --out-dir %t/exp2 > /dev/null
// RUN: FileCheck %s --check-prefix=EXP2 < %t/exp2/libdevice_more_kernel.ptx
// EXP2: ex2.approx.ftz.f32
// EXP2-NOT: ex2.approx.f32
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name exp2_pair_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 256" --out-dir %t/exp2p > /dev/null
// RUN: FileCheck %s --check-prefix=EXP2-PAIR < %t/exp2p/exp2_pair_kernel.ptx
// EXP2-PAIR-NOT: ex2.approx.f32
// EXP2-PAIR: ex2.approx.ftz.f32
// EXP2-PAIR-NOT: ex2.approx.f32
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name exp2_pair_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 256" --no-reflect-ftz --out-dir %t/exp2nf > /dev/null
// RUN: FileCheck %s --check-prefix=EXP2-KEEP < %t/exp2nf/exp2_pair_kernel.ptx
// EXP2-KEEP-NOT: ex2.approx.ftz.f32
// EXP2-KEEP: ex2.approx.f32
// EXP2-KEEP-NOT: ex2.approx.ftz.f32
//
// tl.cat: join, the new dimension moved before `dim`, merged.
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name cat_kernel --signature "*fp16:16, *fp16:16, *fp16:16, i32, i32, 1, 32, 64" --out-dir %t/cat > /dev/null
// RUN: FileCheck %s --check-prefix=CAT < %t/cat/cat_kernel.txlir
// CAT: txl.trans {{.*}} {order = array<i32: 0, 2, 1>} : tensor<32x64x2xf16> -> tensor<32x2x64xf16>
// CAT: txl.reshape {{.*}} : tensor<32x2x64xf16> -> tensor<32x128xf16>
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name cat_1d_kernel --signature "*fp32:16, *fp32:16, *fp32:16, 128" --target sm_80 --out-dir %t/cat1 > /dev/null
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name swizzle2d_kernel --signature "*i32:16, *i32:16, i32, i32, i32, 16, 32" --out-dir %t/sw > /dev/null
//
// tl.clamp with PropagateNan.ALL: NaN-propagating maximum then minimum.
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name clamp_kernel --signature "*fp32:16, *fp32:16, i32, fp32, fp32, True, 1024" --out-dir %t/clamp > /dev/null
// RUN: FileCheck %s --check-prefix=CLAMP < %t/clamp/clamp_kernel.txlir
// CLAMP: arith.maximumf
// CLAMP: arith.minimumf
// RUN: txlc %S/../../gpu/txl_kernels_more.py --kernel-name builtins_kernel --signature "*fp32:16, *fp32:16, i32, 1024" --out-dir %t/bi > /dev/null
//
// ptxas rejecting PTX that holds user inline asm is a user error at the
// (first) tl.inline_asm_elementwise call, not an internal one.
// RUN: not txlc %S/../Inputs/inline_asm_bad_ptx.py --kernel-name kernel --signature "*i32" --out-dir %t/badptx 2>&1 | FileCheck %s --check-prefix=BADPTX
// BADPTX-NOT: internal error
// BADPTX: inline_asm_bad_ptx.py:9:9: error: ptxas rejected the PTX, which holds tl.inline_asm_elementwise code (the first call is here):
// BADPTX: mov
