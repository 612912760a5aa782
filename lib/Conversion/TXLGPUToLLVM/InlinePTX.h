//===- InlinePTX.h - the only place txl writes PTX text --------*- C++ -*-===//
//
// NVVM has no predicated global load/store with cache hints, and its wgmma
// wait takes no registers (so nothing orders reads of the accumulators after
// it), and it cannot edit or publish a tensor map (tensormap.replace,
// tensormap.cp_fenceproxy), so these are inline PTX. Everything else goes
// through NVVM/LLVM ops.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_CONVERSION_TXLGPUTOLLVM_INLINEPTX_H
#define TXL_CONVERSION_TXLGPUTOLLVM_INLINEPTX_H

#include "txl/Dialect/TXL/IR/Dialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::txl {

/// Loads `others.size()` words of `wordBits` (8, 16, 32 or 64) bits (8-bit
/// words travel in 16-bit registers) from the
/// global pointer `ptr` when `pred` (i1) holds; otherwise yields `others`.
SmallVector<Value> emitPredicatedLoad(OpBuilder &b, Location loc, Value ptr,
                                      Value pred, unsigned wordBits,
                                      ArrayRef<Value> others,
                                      CacheModifier cache,
                                      EvictionPolicy evict, bool isVolatile);

/// Stores `words` (each of `wordBits` bits) to `ptr` when `pred` holds.
void emitPredicatedStore(OpBuilder &b, Location loc, Value ptr, Value pred,
                         unsigned wordBits, ArrayRef<Value> words,
                         CacheModifier cache, EvictionPolicy evict);

/// `wgmma.wait_group.sync.aligned pendings` with every accumulator register
/// (32-bit: f32 or i32) passed through it, so that their later uses are
/// ordered after the wait. Returns the registers to use from then on.
SmallVector<Value> emitWarpGroupDotWait(OpBuilder &b, Location loc,
                                        int pendings, ArrayRef<Value> regs);

/// `wgmma.mma_async` m64nNk`k` with A from registers (NVVM's op takes A as
/// a descriptor only): `acc` are the N/2 f32 accumulator registers, `a` the
/// four 32-bit registers of A's fragment (two 16-bit elements each for k =
/// 16, four 8-bit ones for k = 32), `descB` B's shared-memory descriptor.
/// `type` is "f16" or "bf16" (k 16), "e4m3" or "e5m2" (k 32); `transposeB`
/// selects an MN-major B (16-bit only: 8-bit B is K-major, and the PTX
/// form has no transpose operand). Without `accumulate` (wgmma's scale-d =
/// 0) the result is A*B and `acc` is not read (pass undefs). Returns the
/// new accumulators.
SmallVector<Value>
emitWarpGroupDotRegisterA(OpBuilder &b, Location loc, ArrayRef<Value> acc,
                          ArrayRef<Value> a, Value descB, StringRef type,
                          int64_t k, bool transposeB, bool accumulate = true);

/// Passes 32-bit registers through an empty asm statement with side
/// effects, so the instructions computing them stay above it (and above
/// whatever ordered operation follows, such as wgmma.fence). Returns the
/// registers to use from then on.
SmallVector<Value> emitRegisterPin(OpBuilder &b, Location loc,
                                   ArrayRef<Value> regs);

/// One probe of `mbarrier.try_wait.parity` on the shared barrier `bar`:
/// i1, true once the phase of `parity` has completed. With a hint, the
/// probe suspends the thread up to that many ns before it gives up.
/// txl.mbar_wait (spinUntil) and the bounded waits of TXL_DEBUG_SYNC loop
/// on it.
Value emitMBarrierTryWaitOnce(OpBuilder &b, Location loc, Value bar,
                              Value parity,
                              std::optional<int> suspendHintNs = {});

/// `tensormap.replace.tile.<field>.shared::cta.b1024` on the CUtensorMap
/// being built at shared address `map`: with `ord`, of dimension `ord`
/// (innermost first) to the register `value` (b32 or b64 by its type);
/// without, `value` must be null and `imm` is written (rank, elemtype,
/// interleave_layout, swizzle_mode, fill_mode).
void emitTensorMapReplace(OpBuilder &b, Location loc, Value map,
                          StringRef field, std::optional<int> ord, Value value,
                          int64_t imm = 0);

/// The calling warp (all 32 lanes, converged) copies the 128-byte map at
/// shared address `map` to global address `dst` and releases it to the
/// tensormap proxy at GPU scope (tensormap.cp_fenceproxy, which NVVM lacks).
void emitTensorMapCopyRelease(OpBuilder &b, Location loc, Value dst, Value map);

} // namespace mlir::txl

#endif
