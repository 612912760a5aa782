//===- Utility.h - shared helpers of the txlgpu -> LLVM lowering -*- C++ -*-=//
#ifndef TXL_CONVERSION_TXLGPUTOLLVM_UTILITY_H
#define TXL_CONVERSION_TXLGPUTOLLVM_UTILITY_H

#include "txl/Dialect/TXLGPU/IR/Dialect.h"
#include "txl/Dialect/TXLGPU/IR/LayoutUtils.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::txl {

/// Tensors become LLVM structs of the scalars one thread holds; txl
/// pointers become LLVM pointers in their address space.
class TXLTypeConverter : public LLVMTypeConverter {
public:
  explicit TXLTypeConverter(MLIRContext *ctx);
};

/// Per-thread view of tensors: pack/unpack the register struct.
SmallVector<Value> unpackTensor(OpBuilder &b, Location loc, Value llStruct);
Value packTensor(OpBuilder &b, Location loc, const TypeConverter &tc,
                 Type tensorType, ArrayRef<Value> regs);

/// Constants and thread identity.
Value i32Const(OpBuilder &b, Location loc, int64_t v);
Value i64Const(OpBuilder &b, Location loc, int64_t v);
Value threadIdX(OpBuilder &b, Location loc);
/// Lane and warp of this thread within its warpgroup's tensor.
Value laneId(OpBuilder &b, Location loc);
/// warpId as lane 0 holds it: the same value, which ptxas then knows to be
/// warp-uniform (what is computed from it can stay in uniform registers).
/// Every lane of the warp must execute it.
Value uniformWarpId(OpBuilder &b, Location loc);
Value warpId(OpBuilder &b, Location loc);
/// The CTA-wide warp index, read from lane 0 so that the compiler knows
/// it is warp-uniform (single-thread tcgen05/CLC issue picks a warp by it).
Value ctaWarpId(OpBuilder &b, Location loc);

/// The per-dimension coordinate offsets (i32) contributed by this thread's
/// lane and warp: register r's coordinate is regCoord(r) XOR these.
SmallVector<Value> threadCoordOffsets(OpBuilder &b, Location loc,
                                      const txlgpu::LayoutMap &map);
/// Coordinates (i32 per dim) of every register of this thread.
SmallVector<SmallVector<Value>> allRegCoords(OpBuilder &b, Location loc,
                                             const txlgpu::LayoutMap &map);

/// i1 that is true in exactly one thread of each group of threads holding
/// the same data (replicated lanes/warps), for stores and scratch writes.
Value isFirstReplica(OpBuilder &b, Location loc, const txlgpu::LayoutMap &map);

/// Base of the dynamic shared memory, as a pointer in address space 3.
Value sharedMemoryBase(OpBuilder &b, Location loc, Operation *op);
/// CTA-wide barrier.
/// XOR of `table[bit]` over the set bits of `id` (a runtime i32).
Value xorTable(OpBuilder &b, Location loc, Value id, ArrayRef<int64_t> table);
/// Pointer to the shared bytes an allocating op got (txlgpu.shared_offset).
Value sharedAllocBase(OpBuilder &b, Location loc, Operation *op);
/// Walks the registers of `tensorTy` in runs that sit at consecutive
/// offsets of the shared tile `tileTy` at `base` (at most `maxVec` elements,
/// a power of two, aligned to the run length): `each(firstReg, length,
/// address of the run)`. Fails (with an error on `op`) when the tensor
/// cannot be laid out in the tile.
LogicalResult forEachSharedRun(OpBuilder &b, Location loc, Operation *op,
                               Value base, RankedTensorType tensorTy,
                               txlgpu::MemDescType tileTy, int64_t maxVec,
                               function_ref<void(int, int64_t, Value)> each);
/// One run of forEachSharedRun moved as a single access: `regs` stored at
/// `ptr` (a vector store, or a scalar one for a single element), or `n`
/// elements of `elem` loaded from `ptr` and appended to `out`.
void storeSharedRun(OpBuilder &b, Location loc, Value ptr,
                    ArrayRef<Value> regs);
void loadSharedRun(OpBuilder &b, Location loc, Value ptr, Type elem, int64_t n,
                   SmallVectorImpl<Value> &out);
/// Stores a 16-bit register tensor into a shared tile with stmatrix when
/// its layout is the mma fragment pattern (sm_90+); false, emitting
/// nothing, otherwise (StoreMatrix.cpp).
bool storeTileByMatrices(OpBuilder &b, Location loc, Operation *op, Value base,
                         ArrayRef<Value> regs, RankedTensorType tensorTy,
                         txlgpu::MemDescType tileTy);
/// A register tensor read from a shared tile in vector runs (no
/// synchronization).
FailureOr<SmallVector<Value>> readTile(OpBuilder &b, Location loc,
                                       Operation *op, Value base,
                                       RankedTensorType tensorTy,
                                       txlgpu::MemDescType tileTy);
/// Registers to their places in a shared tile: stmatrix where the layout
/// allows, vector runs otherwise (no synchronization).
LogicalResult storeTile(OpBuilder &b, Location loc, Operation *op, Value base,
                        ArrayRef<Value> regs, RankedTensorType tensorTy,
                        txlgpu::MemDescType tileTy);
/// Writes a register tensor into a shared tile by the tile's layout,
/// synchronized and fenced for the async proxy (SharedMemoryOpToLLVM.cpp).
LogicalResult writeSharedTile(OpBuilder &b, Location loc, Operation *op,
                              Value base, Value llTensor,
                              RankedTensorType tensorTy,
                              txlgpu::MemDescType tileTy);

/// Synchronizes the threads that share a tensor: the CTA, or with several
/// warpgroups the calling warpgroup.
void barrier(OpBuilder &b, Location loc);
/// Module attribute: the named-barrier id of warpgroup 0's barrier; group g
/// uses this id minus g (chooseGroupBarrierIds, ConvertTXLGPUToLLVM.cpp).
/// Absent: 15.
constexpr llvm::StringLiteral kGroupBarrierTopAttr = "txlgpu.group_barrier_top";
/// bar.sync 0 over the whole CTA (kernel-entry initialization).
void ctaBarrier(OpBuilder &b, Location loc);
int numWarpgroupsOf(Operation *op);
/// num_warps x num_warpgroups x 32.
int threadsPerCTAOf(Operation *op);
/// NVPTX's shared::cluster address space (other CTAs' shared memory).
constexpr unsigned kSharedClusterAddressSpace =
    unsigned(NVVM::NVVMMemorySpace::SharedCluster);
/// The module's target SM number (90 for sm_90a); kUnknownSM when the
/// module names no target (then every feature is assumed available).
constexpr int kUnknownSM = 1000;
int targetSM(Operation *op);
/// CTAs per cluster (1 without clusters).
int clusterSizeOf(Operation *op);
/// tid.x / (num_warps * 32).
Value warpGroupId(OpBuilder &b, Location loc);

/// fence.proxy.async.shared::cta: generic-proxy shared-memory writes become
/// visible to the async proxy (wgmma, TMA).
void fenceAsyncProxy(OpBuilder &b, Location loc);
/// Marks the mbar_waits that may complete through cp.async-tracked
/// arrivals (mbar_arrive(track_async_op=True)) on the same barriers, so
/// that their lowering fences the async proxy after the wait (see
/// MBarWaitOpToLLVM). Call before the conversion.
void markWaitsForAsyncCopies(ModuleOp module);
/// Runs `body` only where `pred` holds (a branch around it).
void ifThen(ConversionPatternRewriter &rewriter, Location loc, Value pred,
            function_ref<void()> body);
/// Repeats `probe` (an i1 built at the builder's insertion point) until it
/// holds, as a loop in the LLVM IR. Spin waits must not loop inside an asm
/// statement with `bra.uni` (as NVVM's mbarrier.try_wait.parity op does):
/// a probe's result may differ between the threads of a warp, and a branch
/// ptxas believes uniform leaves the warp unconverged at the next aligned
/// barrier (compute-sanitizer's synccheck: "divergent thread(s)"). Here
/// the NVPTX backend sees a divergent branch and ptxas reconverges it.
void spinUntil(ConversionPatternRewriter &rewriter, Location loc,
               function_ref<Value(OpBuilder &)> probe);
/// The thread that issues the single-thread async operations (expect_tx,
/// TMA) of txl.* ops: txlgpu::asyncIssuerOf as an i1.
Value isWarpGroupLeader(OpBuilder &b, Location loc, Operation *op);
/// TXL_DEBUG_SYNC (DebugSyncToLLVM.cpp): the wait bound of the module of
/// `op` in ns, if it has one; the record global it reports through; a wait
/// on `bar` for `parity` that traps with a report past the bound.
std::optional<int64_t> debugSyncTimeoutNs(Operation *op);
void declareDebugRecord(ModuleOp module);
void emitBoundedMBarrierWait(ConversionPatternRewriter &rewriter, Location loc,
                             Operation *op, Value bar, Value parity,
                             int64_t timeoutNs);

/// `a && maybe`, or `a` when `maybe` is null.
Value andPred(OpBuilder &b, Location loc, Value a, Value maybe);

/// Shuffle `v` (any 32/16/64-bit or smaller scalar) across lanes with xor.
Value shuffleXor(OpBuilder &b, Location loc, Value v, int laneMask);

/// How an element is held in registers and shared memory: 8-bit floats
/// (which LLVM has no type for) as i8, everything else as itself.
Type storageType(Type elem);

/// Element type of a tensor, converted (ptr -> !llvm.ptr<1>).
Type convertElementType(const TypeConverter &tc, Type tensorType);

/// Elements per vector global access of `op` on `ptrType`: the width
/// AssignLayouts recorded (txlgpu.vec), capped by the registers the layout
/// keeps contiguous and by 16 bytes (MemoryOpToLLVM.cpp).
unsigned globalVectorWidth(Operation *op, Type ptrType, unsigned elemBits);

/// Pattern population, one per file.
void populateElementwiseOpPatterns(TXLTypeConverter &tc,
                                   RewritePatternSet &patterns);
void populateMathOpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateFp8OpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateViewOpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateMemoryOpPatterns(TXLTypeConverter &tc,
                              RewritePatternSet &patterns);
void populateAtomicOpPatterns(TXLTypeConverter &tc,
                              RewritePatternSet &patterns);
/// Clones a reduce's or scan's combine region on (lhs, rhs): its first n
/// arguments take `lhs`, the next n `rhs`; returns the yielded values.
SmallVector<Value> cloneCombineRegion(OpBuilder &b, Block &region,
                                      ArrayRef<Value> lhs, ArrayRef<Value> rhs);

void populateReduceOpPatterns(TXLTypeConverter &tc,
                              RewritePatternSet &patterns);
void populateScanOpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateHistogramOpPatterns(TXLTypeConverter &tc,
                                 RewritePatternSet &patterns);
void populateGatherOpPatterns(TXLTypeConverter &tc,
                              RewritePatternSet &patterns);
void populateInlineAsmOpPatterns(TXLTypeConverter &tc,
                                 RewritePatternSet &patterns);
void populateConvertLayoutOpPatterns(TXLTypeConverter &tc,
                                     RewritePatternSet &patterns);
void populateSPMDOpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateDotOpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateWarpGroupDotOpPatterns(TXLTypeConverter &tc,
                                    RewritePatternSet &patterns);
void populateSharedMemoryOpPatterns(TXLTypeConverter &tc,
                                    RewritePatternSet &patterns);
void populatePrintOpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateTMAOpPatterns(TXLTypeConverter &tc, RewritePatternSet &patterns);
void populateTensorMemoryOpPatterns(TXLTypeConverter &tc,
                                    RewritePatternSet &patterns);
void populateClusterLaunchControlOpPatterns(TXLTypeConverter &tc,
                                            RewritePatternSet &patterns);
void populateTCGen05MMAOpPatterns(TXLTypeConverter &tc,
                                  RewritePatternSet &patterns);
void populateAsyncCopyOpPatterns(TXLTypeConverter &tc,
                                 RewritePatternSet &patterns);

} // namespace mlir::txl

#endif
