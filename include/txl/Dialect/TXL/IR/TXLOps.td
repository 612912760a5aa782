//===- TXLOps.td - txl operations --------------------------*- tablegen -*-===//
#ifndef TXL_OPS_TD
#define TXL_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "txl/Dialect/TXL/IR/TXLDialect.td"
include "txl/Dialect/TXL/IR/TXLTypes.td"

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

def TXL_ProgramIdOp : TXL_Op<"program_id", [Pure]> {
  let summary = "Index of this program (CTA) along an axis of the grid";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TXL_NumProgramsOp : TXL_Op<"num_programs", [Pure]> {
  let summary = "Number of programs along an axis of the grid";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def TXL_MakeRangeOp : TXL_Op<"make_range", [Pure]> {
  let summary = "1-D tensor [start, end) of i32; end - start a power of two";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TXL_SplatOp : TXL_Op<"splat", [Pure,
    TypesMatchWith<"result element type matches the scalar", "result", "src",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "Tensor whose every element is the scalar operand";
  let arguments = (ins TXL_Elem:$src);
  let results = (outs TXL_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TXL_BroadcastOp : TXL_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Broadcast size-1 dimensions to the result shape (same rank)";
  let arguments = (ins TXL_Tensor:$src);
  let results = (outs TXL_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TXL_ExpandDimsOp : TXL_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Insert a size-1 dimension at `axis`";
  let arguments = (ins TXL_Tensor:$src, I32Attr:$axis);
  let results = (outs TXL_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXL_ReshapeOp : TXL_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reshape to a shape with the same number of elements";
  let description = [{
    Row-major reshape. With `allow_reorder`, the compiler may permute the
    elements (Triton's `can_reorder`), which only reductions tolerate.
  }];
  let arguments = (ins TXL_Tensor:$src, UnitAttr:$allow_reorder);
  let results = (outs TXL_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXL_TransOp : TXL_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permute the dimensions of a tensor";
  let arguments = (ins TXL_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TXL_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXL_ExtractSliceOp : TXL_Op<"extract_slice",
                                 [Pure, SameOperandsAndResultElementType]> {
  let summary = "A static, aligned window of a tensor";
  let description = [{
    `result[i] = src[offsets + i]`, the result's shape giving the window's
    size. Each window dimension is a power of two and its offset a multiple
    of it (what `tl.split` of a halved dimension produces), so that when the
    window's dimension lies in registers the slice only renames registers.
  }];
  let arguments = (ins TXL_Tensor:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs TXL_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TXL_GatherOp : TXL_Op<"gather", [Pure]> {
  let summary = "Gather elements of a tensor along one axis (tl.gather)";
  let description = [{
    `result[i0, .., ik, ..] = src[i0, .., indices[i0, .., ik, ..], ..]` with
    `k = axis`: the result has the indices' shape and the source's element
    type; every other dimension of `indices` equals the source's. An index
    outside `[0, src.shape[axis])` gives an unspecified value (as in
    Triton); it never reads outside the tile.
  }];
  let arguments = (ins TXL_Tensor:$src,
                   RankedTensorOf<[AnySignlessInteger]>:$indices, I32Attr:$axis);
  let results = (outs TXL_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` type($src) `,` type($indices) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

def TXL_InputPrecisionAttr : I32EnumAttr<"InputPrecision",
    "how fp32 operands of a dot are multiplied (Triton's input_precision)", [
    I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
    I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
    I32EnumAttrCase<"BF16x6", 4, "bf16x6">]> {
  let cppNamespace = "::mlir::txl";
}

def TXL_DotOp : TXL_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a @ b + c on 2-D tiles, or batched on 3-D ones";
  let description = [{
    `a` is [M, K], `b` is [K, N], `c` and `d` are [M, N]; or, batched, `a`
    is [B, M, K], `b` [B, K, N], `c` and `d` [B, M, N] (B independent
    products; mma.sync or FMAs, never wgmma/tcgen05). Operands share one
    element type (fp16, bf16, fp32, fp64, fp8, int8); the accumulator is
    fp32, or fp16 for fp16 operands (mma/wgmma's f16 accumulators), fp64 for
    fp64 operands, int32 for int8 operands. `inputPrecision` only matters
    for fp32 operands: tf32 rounds them for the tensor cores, ieee computes
    in fp32 FMAs; the split forms (tf32x3, bf16x3, bf16x6) are several dots
    of the pieces, which the front end builds, so this op never carries
    them. Layout assignment picks the instruction (mma.sync, wgmma,
    tcgen05, or FMAs for fp64 and ieee fp32) and the operand layouts.
  }];
  let arguments = (ins TXL_Tensor:$a, TXL_Tensor:$b, TXL_Tensor:$c,
                   DefaultValuedAttr<TXL_InputPrecisionAttr, "::mlir::txl::InputPrecision::TF32">:$inputPrecision);
  let results = (outs TXL_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let extraClassDeclaration = [{
    /// Whether the product is computed by FMA instructions rather than
    /// tensor cores: fp64 operands, or fp32 operands at ieee precision.
    bool isFMA();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def TXL_AddPtrOp : TXL_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by an element offset";
  let arguments = (ins TXL_PtrLike:$ptr, TXL_IntLike:$offset);
  let results = (outs TXL_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TXL_CacheModifierAttr : I32EnumAttr<"CacheModifier", "load/store cache modifier", [
    I32EnumAttrCase<"None", 0, "none">, I32EnumAttrCase<"CA", 1, "ca">,
    I32EnumAttrCase<"CG", 2, "cg">, I32EnumAttrCase<"WB", 3, "wb">,
    I32EnumAttrCase<"CS", 4, "cs">, I32EnumAttrCase<"WT", 5, "wt">,
    I32EnumAttrCase<"CV", 6, "cv">]> {
  let cppNamespace = "::mlir::txl";
}

def TXL_EvictionPolicyAttr : I32EnumAttr<"EvictionPolicy", "L1/L2 eviction policy", [
    I32EnumAttrCase<"Normal", 0, "evict_normal">,
    I32EnumAttrCase<"EvictFirst", 1, "evict_first">,
    I32EnumAttrCase<"EvictLast", 2, "evict_last">]> {
  let cppNamespace = "::mlir::txl";
}

def TXL_LoadOp : TXL_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Load through (a tensor of) pointers, optionally masked";
  let description = [{
    Lanes whose mask is false read nothing and yield `other` (undefined when
    `other` is absent). `mask` and `other` have the shape of `ptr`.
  }];
  let arguments = (ins TXL_PtrLike:$ptr, Optional<TXL_BoolLike>:$mask,
                   Optional<TXL_Value>:$other,
                   DefaultValuedAttr<TXL_CacheModifierAttr, "::mlir::txl::CacheModifier::None">:$cache,
                   DefaultValuedAttr<TXL_EvictionPolicyAttr, "::mlir::txl::EvictionPolicy::Normal">:$evict,
                   UnitAttr:$isVolatile);
  let results = (outs TXL_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr) (`,` type($mask)^)? (`,` type($other)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TXL_StoreOp : TXL_Op<"store", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Store through (a tensor of) pointers, optionally masked";
  let arguments = (ins TXL_PtrLike:$ptr, TXL_Value:$value, Optional<TXL_BoolLike>:$mask,
                   DefaultValuedAttr<TXL_CacheModifierAttr, "::mlir::txl::CacheModifier::None">:$cache,
                   DefaultValuedAttr<TXL_EvictionPolicyAttr, "::mlir::txl::EvictionPolicy::Normal">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr) `,` type($value) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TXL_AtomicRMWOp : TXL_Op<"atomic_rmw",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Atomic read-modify-write through (a tensor of) pointers";
  let description = [{
    Each unmasked element does `*ptr = op(*ptr, val)` atomically and yields
    the old value. `kind` is one of add, fadd, max, umax, min, umin, and,
    or, xor, xchg (signedness and float-ness are chosen by the builder);
    `sem` is relaxed, acquire, release or acq_rel; `scope` is gpu, cta or
    sys. Replicated elements are updated once.
  }];
  let arguments = (ins StrAttr:$kind, TXL_PtrLike:$ptr, TXL_Value:$val,
                   Optional<TXL_BoolLike>:$mask, StrAttr:$sem, StrAttr:$scope);
  let results = (outs TXL_Value:$result);
  let assemblyFormat = [{
    $kind `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` type($ptr) `,` type($val) (`,` type($mask)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TXL_AtomicCASOp : TXL_Op<"atomic_cas",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Atomic compare-and-swap through (a tensor of) pointers";
  let description = [{
    Each element does `old = *ptr; if (old == cmp) *ptr = val` atomically
    and yields `old`.
  }];
  let arguments = (ins TXL_PtrLike:$ptr, TXL_Value:$cmp, TXL_Value:$val,
                   StrAttr:$sem, StrAttr:$scope);
  let results = (outs TXL_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $val attr-dict `:` type($ptr) `,` type($cmp) `,` type($val) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TXL_IntToPtrOp : TXL_Op<"int_to_ptr", [Pure]> {
  let arguments = (ins AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$src);
  let results = (outs TXL_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TXL_PtrToIntOp : TXL_Op<"ptr_to_int", [Pure]> {
  let arguments = (ins TXL_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TXL_BitcastOp : TXL_Op<"bitcast", [Pure]> {
  let summary = "Reinterpret bits (same bit width), including pointer casts";
  let arguments = (ins TXL_Value:$src);
  let results = (outs TXL_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def TXL_ReduceOp : TXL_Op<"reduce", [Pure, SameOperandsShape,
    SingleBlock]> {
  let summary = "Reduce tensors along an axis with a combine region";
  let description = [{
    The region takes 2*N scalars (accumulators then new elements) and yields
    N scalars; it must be associative and commutative. Several operands are
    reduced together (argmax carries value and index).
  }];
  let arguments = (ins Variadic<TXL_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TXL_Value>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let assemblyFormat = "`(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp";
  let extraClassDeclaration = [{
    /// The shape of each result, or an empty list for scalar results.
    static llvm::SmallVector<int64_t> resultShape(RankedTensorType srcTy, int axis);
  }];
}

def TXL_ReduceReturnOp : TXL_Op<"reduce.return",
    [HasParent<"ReduceOp">, Pure, Terminator, ReturnLike]> {
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TXL_ScanOp : TXL_Op<"scan", [Pure, SameOperandsAndResultShape,
    SingleBlock]> {
  let summary = "Inclusive scan of tensors along an axis with a combine region";
  let description = [{
    Element i of each result combines elements 0..i of the operands along
    `axis` (N-1..i with `reverse`). The region takes 2*N scalars (the
    combination of the earlier elements in scan order, then the later ones)
    and yields N scalars; it must be associative, not commutative: the
    lowering keeps the operand order.
  }];
  let arguments = (ins Variadic<TXL_Tensor>:$srcs, I32Attr:$axis,
                   UnitAttr:$reverse);
  let results = (outs Variadic<TXL_Tensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let assemblyFormat = "`(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp";
}

def TXL_ScanReturnOp : TXL_Op<"scan.return",
    [HasParent<"ScanOp">, Pure, Terminator, ReturnLike]> {
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TXL_HistogramOp : TXL_Op<"histogram", [Pure]> {
  let summary = "Counts of the values of a 1-D integer tensor per bin";
  let description = [{
    Bin b of the result counts the elements whose low bits,
    `value & (max(num_bins, 32) - 1)`, equal b, where `mask` (if any)
    holds: values in [0, num_bins) land in their own bin, others wrap
    (Triton 3.6's behaviour, which bins by the low bits of each value).
  }];
  let arguments = (ins RankedTensorOf<[AnyInteger]>:$src,
                   Optional<RankedTensorOf<[I1]>>:$mask);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$src (`,` $mask^)? attr-dict `:` type($src) (`,` type($mask)^)? `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element-wise calls: libdevice functions and inline PTX
//===----------------------------------------------------------------------===//

def TXL_ExternElementwiseOp : TXL_Op<"extern_elementwise", [Pure]> {
  let summary = "Calls a libdevice function on each element";
  let description = [{
    `result[i] = symbol(srcs[0][i], srcs[1][i], ...)`: the operands share
    the result's shape (or all are scalars); their element types are the
    function's parameter types, the result's element type its return type
    (`__nv_popcll`: i64 -> i32). Lowered to a call per element; the target
    stage links libdevice, which defines the function.
  }];
  let arguments = (ins Variadic<TXL_Value>:$srcs, StrAttr:$symbol);
  let results = (outs TXL_Value:$result);
  let assemblyFormat = "$symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)";
  let hasVerifier = 1;
}

def TXL_ElementwiseInlineAsmOp : TXL_Op<"elementwise_inline_asm",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Inline PTX applied to each element (tl.inline_asm_elementwise)";
  let description = [{
    Runs `asm_string` once per `packed_element` elements of the operands
    (which share the results' shape, or are all scalars). Operands $N
    follow the results in the constraint list; elements narrower than 32
    bits are packed into 32-bit registers (pack=4 of i8: one "r"). Which
    elements form a pack is unspecified (Triton's rule). Without `pure` the
    asm is assumed to read and write memory.
  }];
  let arguments = (ins Variadic<TXL_Value>:$args, StrAttr:$asm_string,
                   StrAttr:$constraints, BoolAttr:$pure,
                   ConfinedAttr<I32Attr, [IntMinValue<1>]>:$packed_element);
  let results = (outs Variadic<TXL_Value>:$results);
  let assemblyFormat = "$asm_string `(` $args `)` attr-dict `:` functional-type($args, $results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Hints, debugging
//===----------------------------------------------------------------------===//

def TXL_HintOp : TXL_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Assert facts about a value (multiple_of / max_contiguous)";
  let description = [{
    Pass-through value carrying per-dimension `divisibility` and
    `contiguity` facts the user guarantees, read by the axis analysis.
  }];
  let arguments = (ins TXL_Value:$src, OptionalAttr<DenseI64ArrayAttr>:$divisibility,
                   OptionalAttr<DenseI64ArrayAttr>:$contiguity);
  let results = (outs TXL_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

def TXL_PrintOp : TXL_Op<"print", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "device_print: print a prefix and values from every thread";
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<TXL_Value>:$args);
  let assemblyFormat = "$prefix attr-dict (`:` $args^ `:` type($args))?";
}

#endif
