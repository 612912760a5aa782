// tl.dot_scaled becomes ordinary tile IR (DotScaled.cpp): the e2m1 bytes
// are repeated as pairs along K, the low nibble taken for the first of each
// pair and the high one for the second, and rebuilt as bf16 bits (0.5 =
// 0x3F00 = 16128 for the one subnormal code, exponent rebias 126 << 7
// otherwise, sign bit 3 -> bit 15); the e8m0 scale is repeated 32 times
// along K, shifted into a bf16's exponent field and multiplied in; 0xFF
// selects NaN; then a plain bf16 txl.dot with an fp32 accumulator, which
// sm_90a issues as wgmma.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name triton_test_core_kernel --signature "*u8, i32, i32, *u8, *bf16, i32, i32, none, *bf16, 128, 128, 64, 'e2m1', 'bf16'" --target sm_90a --out-dir %t
// RUN: FileCheck %s < %t/triton_test_core_kernel.txlir
// RUN: FileCheck %s --check-prefix=PTX < %t/triton_test_core_kernel.ptx
// CHECK-DAG: %[[HALF:.*]] = arith.constant dense<16128> : tensor<128x32x2xi16>
// CHECK-DAG: %[[NAN:.*]] = arith.constant dense<0x7FC0> : tensor<128x64xbf16>
// CHECK-DAG: %[[FF:.*]] = arith.constant dense<-1> : tensor<128x64xi8>
// CHECK-DAG: %[[SEVEN:.*]] = arith.constant dense<7> : tensor<128x64xi16>
// CHECK: %[[A:.*]] = txl.load {{.*}} -> tensor<128x32xi8>
// CHECK: %[[B:.*]] = txl.load {{.*}} -> tensor<64x128xbf16>
// CHECK: %[[S:.*]] = txl.load {{.*}} -> tensor<128x2xi8>
// CHECK: %[[A1:.*]] = txl.expand_dims %[[A]] {axis = 2 : i32} : tensor<128x32xi8> -> tensor<128x32x1xi8>
// CHECK: %[[PAIR:.*]] = txl.broadcast %[[A1]] : tensor<128x32x1xi8> -> tensor<128x32x2xi8>
// CHECK: %[[HI:.*]] = arith.shrui %[[PAIR]]
// CHECK: %[[LO:.*]] = arith.andi %[[PAIR]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq
// CHECK: %[[CODE:.*]] = arith.select %[[FIRST]], %[[LO]], %[[HI]]
// CHECK: arith.extui %[[CODE]] : tensor<128x32x2xi8> to tensor<128x32x2xi16>
// CHECK: arith.addi %{{.*}}, %[[HALF]]
// CHECK: %[[BITS:.*]] = txl.bitcast %{{.*}} : tensor<128x32x2xi16> -> tensor<128x32x2xbf16>
// CHECK: %[[AV:.*]] = txl.reshape %[[BITS]] : tensor<128x32x2xbf16> -> tensor<128x64xbf16>
// CHECK: %[[S1:.*]] = txl.expand_dims %[[S]] {axis = 2 : i32} : tensor<128x2xi8> -> tensor<128x2x1xi8>
// CHECK: %[[S32:.*]] = txl.broadcast %[[S1]] : tensor<128x2x1xi8> -> tensor<128x2x32xi8>
// CHECK: %[[SK:.*]] = txl.reshape %[[S32]] : tensor<128x2x32xi8> -> tensor<128x64xi8>
// CHECK: %[[SW:.*]] = arith.extui %[[SK]] : tensor<128x64xi8> to tensor<128x64xi16>
// CHECK: %[[SE:.*]] = arith.shli %[[SW]], %[[SEVEN]]
// CHECK: %[[SV:.*]] = txl.bitcast %[[SE]] : tensor<128x64xi16> -> tensor<128x64xbf16>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[AV]], %[[SV]] : tensor<128x64xbf16>
// CHECK: %[[ISNAN:.*]] = arith.cmpi eq, %[[SK]], %[[FF]]
// CHECK: %[[AS:.*]] = arith.select %[[ISNAN]], %[[NAN]], %[[SCALED]]
// CHECK: txl.dot %[[AS]], %[[B]], %{{.*}} : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
// PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
//
// fp16 with an e5m2 rhs scaled along K: the compute type is fp16, the rhs
// scale [N, K/32] is transposed to [K/32, N] and repeated along K (axis 0),
// 2**(s-127) is built as fp32 bits and rounded to fp16; fast_math drops
// the NaN select.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*fp16, i32, i32, none, *u8, i32, i32, *u8, *fp32, i32, i32, i32, 'fp16', 'e5m2', 64, 64, 64, True, True, True" --target sm_90a --out-dir %t2 --no-cubin
// RUN: FileCheck %s --check-prefix=FP16 < %t2/scaled_matmul.txlir
// FP16: %[[T:.*]] = txl.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<64x2xi8> -> tensor<2x64xi8>
// FP16: txl.expand_dims %[[T]] {axis = 1 : i32} : tensor<2x64xi8> -> tensor<2x1x64xi8>
// FP16: txl.broadcast {{.*}} -> tensor<2x32x64xi8>
// FP16: txl.reshape {{.*}} : tensor<2x32x64xi8> -> tensor<64x64xi8>
// FP16: arith.extui {{.*}} to tensor<64x64xi32>
// FP16: txl.bitcast {{.*}} : tensor<64x64xi32> -> tensor<64x64xf32>
// FP16: arith.truncf {{.*}} : tensor<64x64xf32> to tensor<64x64xf16>
// FP16: arith.mulf {{.*}} : tensor<64x64xf16>
// FP16-NOT: arith.select
// FP16: txl.dot {{.*}} : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
//
// e2m1 packed along M (lhs_k_pack=False): the pairs run along axis 0.
// RUN: txlc %S/../../gpu/txl_kernels_dot_scaled.py --kernel-name scaled_matmul --signature "*u8, i32, i32, *u8, *u8, i32, i32, none, *fp32, i32, i32, i32, 'e2m1', 'e4m3', 64, 64, 64, False, True, False" --target sm_90a --out-dir %t3 --no-cubin
// RUN: FileCheck %s --check-prefix=MPACK < %t3/scaled_matmul.txlir
// MPACK: txl.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32x64xi8> -> tensor<32x1x64xi8>
// MPACK: txl.broadcast {{.*}} -> tensor<32x2x64xi8>
// MPACK: txl.reshape {{.*}} : tensor<32x2x64xbf16> -> tensor<64x64xbf16>
// MPACK: txl.dot {{.*}} : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
