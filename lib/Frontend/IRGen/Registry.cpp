//===- Registry.cpp - The one table of built-in functions -----------------===//
//
// See Registry.h. Entries are grouped as Triton documents them; an entry
// without a handler is a Triton function txl does not implement yet (name
// resolution reports it as unsupported, docs/compatibility.md lists it).
//
//===----------------------------------------------------------------------===//
#include "Registry.h"

#include "txl/Frontend/IRGen.h"

#include <map>
#include <sstream>

namespace txl::irgen {

namespace h = handlers;

namespace {

constexpr Support kPartial = Support::Partial;
constexpr Support kNotYet = Support::NotYet;

// Shared parameter lists.
const char *kUnary = "(x)";
const char *kRandom = "(seed, offset, n_rounds=10)";

// One entry per line reads as a table; clang-format would break each
// entry over many lines.
// clang-format off
std::vector<BuiltinInfo> buildTable() {
  std::vector<BuiltinInfo> t = {
      //===--- programming model --------------------------------------===//
      {"tl.program_id", "(axis)", "The id of this program along `axis` (0, 1 or 2).", h::programId},
      {"tl.num_programs", "(axis)", "The number of programs launched along `axis`.", h::programId},
      //===--- creation -----------------------------------------------===//
      {"tl.arange", "(start, end)", "The int32 range [start, end); its size must be a power of two.", h::arange},
      {"tl.zeros", "(shape, dtype)", "A tensor of zeros of `shape` and `dtype`.", h::full, Support::Full, "", {"txl.zeros"}},
      {"tl.full", "(shape, value, dtype)", "A tensor of `shape` and `dtype` filled with `value`.", h::full},
      {"tl.zeros_like", "(input, dtype=None)", "Zeros shaped like `input`.", h::fullLike},
      {"tl.full_like", "(input, value, dtype=None)", "`value` shaped like `input`.", h::fullLike},
      {"tl.cat", "(input, other, can_reorder=False, dim=0)", "Concatenates two tensors of one shape along `dim`, in order (can_reorder is accepted and ignored).", h::cat},
      //===--- memory and pointers ------------------------------------===//
      {"tl.load", "(pointer, mask=None, other=None, boundary_check=(), padding_option='', cache_modifier='', eviction_policy='', volatile=False)",
       "Loads a tensor through a pointer tensor or a block pointer.", h::load},
      {"tl.store", "(pointer, value, mask=None, boundary_check=(), cache_modifier='', eviction_policy='')",
       "Stores a tensor through a pointer tensor or a block pointer.", h::store},
      {"tl.make_block_ptr", "(base, shape, strides, offsets, block_shape, order)",
       "A block pointer to a block of a parent tensor.", h::makeBlockPtr},
      {"tl.advance", "(base, offsets)", "A block pointer moved by `offsets`.", h::advance},
      {"tl.make_tensor_descriptor", "(base, shape, strides, block_shape, padding_option='zero')",
       "A TMA tensor descriptor built in the kernel.", h::txlMemory, Support::Full, "", {}, 90,
       "tl.make_tensor_descriptor (TMA)"},
      {"tl.load_tensor_descriptor", "(desc, offsets)", "desc.load(offsets) as a function (TMA).", h::tensorDescriptorIO, Support::Full, "", {}, 90},
      {"tl.store_tensor_descriptor", "(desc, offsets, value)", "desc.store(offsets, value) as a function (TMA).", h::tensorDescriptorIO, Support::Full, "", {}, 90},
      //===--- atomics ------------------------------------------------===//
      {"tl.atomic_add", "(pointer, val, mask=None, sem=None, scope=None)", "Atomic add (int32/64, uint32/64, fp32/64, fp16; bf16 on sm_90); returns the old values.", h::atomicRMW},
      {"tl.atomic_max", "(pointer, val, mask=None, sem=None, scope=None)", "Atomic maximum (32/64-bit ints and floats); returns the old values.", h::atomicRMW},
      {"tl.atomic_min", "(pointer, val, mask=None, sem=None, scope=None)", "Atomic minimum (32/64-bit ints and floats); returns the old values.", h::atomicRMW},
      {"tl.atomic_and", "(pointer, val, mask=None, sem=None, scope=None)", "Atomic bitwise and; returns the old values.", h::atomicRMW},
      {"tl.atomic_or", "(pointer, val, mask=None, sem=None, scope=None)", "Atomic bitwise or; returns the old values.", h::atomicRMW},
      {"tl.atomic_xor", "(pointer, val, mask=None, sem=None, scope=None)", "Atomic bitwise xor; returns the old values.", h::atomicRMW},
      {"tl.atomic_xchg", "(pointer, val, mask=None, sem=None, scope=None)", "Atomic exchange (32/64-bit); returns the old values.", h::atomicRMW},
      {"tl.atomic_cas", "(pointer, cmp, val, sem=None, scope=None)", "Atomic compare-and-swap (16/32/64-bit); returns the old values.", h::atomicCAS},
      //===--- linear algebra -----------------------------------------===//
      {"tl.dot", "(input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None, out_dtype=float32)",
       "Matrix product of two tiles (mma.sync, wgmma on sm_90a, tcgen05 on sm_100a; shared-buffer operands with a tensor-memory acc on sm_100a: a synchronous tcgen05 MMA into acc); int8 operands accumulate in int32, fp16 ones in fp16 with out_dtype=float16; fp32 at input_precision tf32, tf32x3, bf16x3, bf16x6 or ieee (FMAs); fp64 by FMAs. Batched: [..., M, K] @ [..., K, N], leading dims flattened into one batch dim (mma.sync or FMAs).", h::dot, kPartial,
       "fp8 operands with out_dtype=float16 accumulate in fp32; batched dots never use wgmma or tcgen05"},
      {"tl.dot_scaled", "(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False, lhs_k_pack=True, rhs_k_pack=True, out_dtype=float32)",
       "Matrix product of microscaled tiles (mx fp4/fp8 with uint8 e8m0 scales per 32 elements; nvfp4: e2m1 with float8e4nv scales per 16): on sm_100a a block-scaled tcgen05 MMA (kind::mxf8f6f4 for e4m3/e5m2 on both sides, kind::mxf4 for e2m1 on both, kind::mxf4nvf4 for nvfp4) where both scales are given and the tile is one MMA of M = 128, N <= 256; otherwise upcast to bf16/fp16, scaled, then tl.dot.", h::dotScaled, kPartial,
       "the sm_100a block-scaled MMA (all three kinds) has not run on hardware (ptxas- and FileCheck-verified only); nvfp4 scales are read as unsigned on sm_100a"},
      //===--- indexing and shape -------------------------------------===//
      {"tl.where", "(condition, x, y)", "Elements of `x` where `condition`, else of `y`.", h::where},
      {"tl.trans", "(input, *dims)", "Permutes the dimensions (without dims: swaps the last two).", h::transPermute},
      {"tl.permute", "(input, *dims)", "Permutes the dimensions of `input`.", h::transPermute},
      {"tl.reshape", "(input, *shape, can_reorder=False)", "`input` with a new shape.", h::reshapeView},
      {"tl.view", "(input, *shape)", "`input` with a new shape, elements possibly reordered.", h::reshapeView},
      {"tl.ravel", "(x, can_reorder=False)", "`x` flattened to one dimension.", h::ravel},
      {"tl.expand_dims", "(input, axis)", "`input` with new size-1 dimensions at `axis`.", h::expandDims},
      {"tl.broadcast", "(input, other)", "Both tensors broadcast to a common shape.", h::broadcast},
      {"tl.broadcast_to", "(input, *shape)", "`input` broadcast to `shape`.", h::broadcastTo},
      {"tl.split", "(a)", "The two halves of a tensor whose last dimension is 2.", h::split},
      {"tl.join", "(a, b)", "Stacks two tensors along a new last dimension of size 2.", h::join},
      {"tl.interleave", "(a, b)", "Interleaves the last dimensions of two tensors.", h::interleave},
      {"tl.flip", "(x, dim=None)", "Reverses `x` along `dim` (the last by default).", h::flip},
      {"tl.gather", "(src, index, axis)", "src[.., index[.., i, ..], ..] along `axis`: `index` has src's rank and size outside `axis` (through shared memory).", h::gather},
      {"tl.histogram", "(input, num_bins, mask=None)", "int32 counts of a 1-D integer tensor in bins of width 1 from 0; a value outside [0, num_bins) counts in bin value % max(num_bins, 32) if that is below num_bins (Triton's low-bits rule).", h::histogram},
      {"tl.sort", "(x, dim=None, descending=False)", "Sorts `x` along its last dimension (a bitonic network).", h::sortTopk},
      {"tl.topk", "(x, k, dim=None)", "The `k` largest elements along the last dimension, in descending order (sub-32-bit types widen to 32 bits when k < n, as tl.max does).", h::sortTopk},
      {"tl.bitonic_merge", "(x, dim=None, descending=False)", "Sorts a bitonic sequence along the last dimension (the merge stages of a bitonic sort).", h::bitonicMerge},
      {"tl.swizzle2d", "(i, j, size_i, size_j, size_g)", "Row-major (i, j) of a size_i x size_j grid to column-major within groups of size_g rows.", h::swizzle2d},
      {"tl.slice", "(input, start, stop, step=1)", "A static slice.", nullptr, kNotYet},
      //===--- math ---------------------------------------------------===//
      {"tl.exp", kUnary, "e**x (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.exp", "libdevice.exp"}},
      {"tl.exp2", kUnary, "2**x (fp32/fp64); fp32 is libdevice's exp2f, as in Triton: ex2.approx.ftz (subnormals flushed) under enable_reflect_ftz, the default.", h::floatUnary, Support::Full, "", {"tl.math.exp2"}},
      {"tl.log", kUnary, "Natural logarithm (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.log", "libdevice.log"}},
      {"tl.log2", kUnary, "Base-2 logarithm (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.log2", "libdevice.log2"}},
      {"tl.sqrt", kUnary, "Square root (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.sqrt", "libdevice.sqrt"}},
      {"tl.sqrt_rn", kUnary, "Square root, rounded to nearest (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.sqrt_rn"}},
      {"tl.rsqrt", kUnary, "1 / sqrt(x) (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.rsqrt", "libdevice.rsqrt"}},
      {"tl.sin", kUnary, "Sine (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.sin", "libdevice.sin"}},
      {"tl.cos", kUnary, "Cosine (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.cos", "libdevice.cos"}},
      {"tl.erf", kUnary, "Error function (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.erf", "libdevice.erf"}},
      {"tl.floor", kUnary, "Floor (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.floor", "libdevice.floor"}},
      {"tl.ceil", kUnary, "Ceiling (fp32/fp64).", h::floatUnary, Support::Full, "", {"tl.math.ceil", "libdevice.ceil"}},
      {"tl.tanh", kUnary, "Hyperbolic tangent (fp32/fp64); Triton has it as libdevice.tanh.", h::floatUnary, Support::Full, "", {"libdevice.tanh"}},
      {"tl.abs", kUnary, "Absolute value.", h::abs, Support::Full, "", {"tl.math.abs", "libdevice.fabs"}},
      {"tl.fma", "(x, y, z)", "x * y + z, fused.", h::fma, Support::Full, "", {"tl.math.fma", "libdevice.fma"}},
      {"tl.pow", "(x, y)", "x**y (floating point); Triton has it as libdevice.pow.", h::pow, Support::Full, "", {"libdevice.pow"}},
      {"tl.sigmoid", kUnary, "1 / (1 + exp(-x)).", h::sigmoid},
      {"tl.softmax", "(x, dim=None, keep_dims=False, ieee_rounding=False)", "Softmax along `dim` (the last by default).", h::softmax},
      {"tl.fdiv", "(x, y, ieee_rounding=False)", "Floating-point division.", h::fdiv, Support::Full, "", {"tl.math.fdiv"}},
      {"tl.div_rn", "(x, y)", "Floating-point division, rounded to nearest.", h::fdiv, Support::Full, "", {"tl.math.div_rn"}},
      {"tl.umulhi", "(x, y)", "The high 32 (or 64) bits of the unsigned product.", h::umulhi, Support::Full, "", {"tl.math.umulhi"}},
      {"tl.maximum", "(x, y, propagate_nan=PropagateNan.NONE)", "Element-wise maximum.", h::minimumMaximum},
      {"tl.minimum", "(x, y, propagate_nan=PropagateNan.NONE)", "Element-wise minimum.", h::minimumMaximum},
      {"tl.clamp", "(x, min, max, propagate_nan=PropagateNan.NONE)", "min(max(x, min), max), element-wise; NaN x gives NaN with PropagateNan.ALL (bf16 computes in fp32).", h::clamp},
      {"tl.cdiv", "(x, div)", "Ceiling division.", h::cdiv, Support::Full, "", {"tl.math.cdiv"}},
      {"tl.inline_asm_elementwise", "(asm, constraints, args, dtype, is_pure, pack)", "Inline PTX on `pack` elements at a time ($0.. results, then arguments; narrow elements packed in 32-bit registers); a tuple dtype gives a tuple.", h::inlineAsmElementwise},
      {"tl.map_elementwise", "(scalar_fn, *args, pack=1)", "Applies a @jit function to the broadcast arguments element by element.", h::mapElementwise, kPartial,
       "the function runs on whole tensors: an `if` on an element's value runs both branches (which must have no effects) and selects element-wise; a loop on one is an error"},
      //===--- libdevice (a `math` op, or a call: Libdevice.cpp) ----===//
      {"libdevice.asin", "(x)", "libdevice arcsine (fp32/fp64).", h::floatUnary},
      {"libdevice.acos", "(x)", "libdevice arccosine (fp32/fp64).", h::floatUnary},
      {"libdevice.atan", "(x)", "libdevice arctangent (fp32/fp64).", h::floatUnary},
      {"libdevice.atan2", "(x, y)", "libdevice two-argument arctangent (fp32/fp64).", h::atan2},
      {"libdevice.sinh", "(x)", "libdevice hyperbolic sine (fp32/fp64).", h::floatUnary},
      {"libdevice.cosh", "(x)", "libdevice hyperbolic cosine (fp32/fp64).", h::floatUnary},
      {"libdevice.tan", "(x)", "libdevice tangent (fp32/fp64).", h::floatUnary},
      {"libdevice.asinh", "(x)", "libdevice inverse hyperbolic sine (fp32/fp64).", h::floatUnary},
      {"libdevice.acosh", "(x)", "libdevice inverse hyperbolic cosine (fp32/fp64).", h::floatUnary},
      {"libdevice.atanh", "(x)", "libdevice inverse hyperbolic tangent (fp32/fp64).", h::floatUnary},
      {"libdevice.erfc", "(x)", "libdevice complementary error function (fp32/fp64).", h::floatUnary},
      {"libdevice.erfinv", "(x)", "libdevice inverse error function (fp32/fp64).", h::libdeviceCall},
      {"libdevice.expm1", "(x)", "libdevice exp(x) - 1 (fp32/fp64).", h::floatUnary},
      {"libdevice.log1p", "(x)", "libdevice log(1 + x) (fp32/fp64).", h::floatUnary},
      {"libdevice.log10", "(x)", "libdevice base-10 logarithm (fp32/fp64).", h::floatUnary},
      {"libdevice.cbrt", "(x)", "libdevice cube root (fp32/fp64).", h::floatUnary},
      {"libdevice.hypot", "(x, y)", "libdevice sqrt(x*x + y*y) (fp32/fp64).", h::libdeviceCall},
      {"libdevice.trunc", "(x)", "libdevice round toward zero (fp32/fp64).", h::floatUnary},
      {"libdevice.round", "(x)", "libdevice round half away from zero (fp32/fp64).", h::floatUnary},
      {"libdevice.rint", "(x)", "libdevice round half to even (fp32/fp64).", h::floatUnary},
      {"libdevice.fmod", "(x, y)", "libdevice floating-point remainder, sign of x (fp32/fp64).", h::libdeviceCall},
      {"libdevice.isnan", "(x)", "libdevice NaN test (fp32/fp64 -> int1).", h::libdeviceCall},
      {"libdevice.isinf", "(x)", "libdevice infinity test (fp32/fp64 -> int1).", h::libdeviceCall},
      {"libdevice.signbit", "(x)", "libdevice sign bit (fp32/fp64 -> int32, non-zero when set).", h::libdeviceCall},
      {"libdevice.copysign", "(x, y)", "libdevice magnitude of x, sign of y (fp32/fp64).", h::libdeviceCall},
      {"libdevice.ilogb", "(x)", "libdevice unbiased exponent (fp32/fp64 -> int32).", h::libdeviceCall},
      {"libdevice.ldexp", "(x, y)", "libdevice x * 2**y (fp32/fp64 x, int32 y).", h::libdeviceCall},
      {"libdevice.exp10", "(x)", "libdevice 10**x (fp32/fp64).", h::libdeviceCall},
      {"libdevice.exp2", "(x)", "libdevice 2**x (fp32/fp64); fp32 is ex2.approx.ftz (subnormals flushed) under enable_reflect_ftz, Triton's default (tl.exp2 is the same function).", h::libdeviceCall},
      {"libdevice.lgamma", "(x)", "libdevice log |gamma(x)| (fp32/fp64).", h::libdeviceCall},
      {"libdevice.tgamma", "(x)", "libdevice gamma function (fp32/fp64).", h::libdeviceCall},
      {"libdevice.fast_expf", "(x)", "libdevice fast approximate exp (fp32).", h::libdeviceCall},
      {"libdevice.fast_logf", "(x)", "libdevice fast approximate log (fp32).", h::libdeviceCall},
      {"libdevice.rcp_rn", "(x)", "libdevice reciprocal, rounded to nearest (fp32/fp64).", h::libdeviceCall},
      {"libdevice.nearbyint", "(x)", "libdevice round half to even (fp32/fp64).", h::libdeviceCall},
      {"libdevice.fmax", "(x, y)", "libdevice maximum, NaN-ignoring (fp32/fp64).", h::libdeviceCall},
      {"libdevice.fmin", "(x, y)", "libdevice minimum, NaN-ignoring (fp32/fp64).", h::libdeviceCall},
      {"libdevice.saturatef", "(x)", "libdevice clamp to [0, 1] (fp32).", h::libdeviceCall},
      {"libdevice.popc", "(x)", "libdevice population count (int32/int64 -> int32).", h::libdeviceCall},
      {"libdevice.clz", "(x)", "libdevice count of leading zeros (int32/int64 -> int32).", h::libdeviceCall},
      {"libdevice.brev", "(x)", "libdevice bit reversal (int32/int64).", h::libdeviceCall},
      //===--- reductions and scans -----------------------------------===//
      {"tl.sum", "(input, axis=None, keep_dims=False, dtype=None)", "Sum along `axis` (all axes when None).", h::sumXorSum},
      {"tl.xor_sum", "(input, axis=None, keep_dims=False, dtype=None)", "Xor of integers along `axis`.", h::sumXorSum},
      {"tl.max", "(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False)",
       "Maximum along `axis`, optionally with its index.", h::maxMinArg, Support::Full, "", {"tl.math.max"}},
      {"tl.min", "(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False)",
       "Minimum along `axis`, optionally with its index.", h::maxMinArg, Support::Full, "", {"tl.math.min"}},
      {"tl.argmax", "(input, axis, tie_break_left=True, keep_dims=False)", "Index of the maximum along `axis`.", h::maxMinArg},
      {"tl.argmin", "(input, axis, tie_break_left=True, keep_dims=False)", "Index of the minimum along `axis`.", h::maxMinArg},
      {"tl.reduce", "(input, axis, combine_fn, keep_dims=False)", "Reduction with a @jit combine function.", h::reduce},
      {"tl.reduce_or", "(input, axis, keep_dims=False)", "Bitwise or of integers along `axis` (all axes when None), in the input's type.", h::reduceOr},
      {"tl.associative_scan", "(input, axis, combine_fn, reverse=False)", "Inclusive scan of a tensor (or a tuple of tensors) along `axis` with a @jit combine function.", h::associativeScan},
      {"tl.cumsum", "(input, axis=0, reverse=False, dtype=None)", "Inclusive prefix sum; sub-32-bit integers widen to (u)int32, bf16 to fp32.", h::cumsumCumprod},
      {"tl.cumprod", "(input, axis=0, reverse=False)", "Inclusive prefix product; bf16 widens to fp32.", h::cumsumCumprod},
      //===--- random numbers (Philox 4x32, Triton's streams) ---------===//
      {"tl.randint", kRandom, "One block of random uint32 per (seed, offset).", h::randint},
      {"tl.randint4x", kRandom, "Four blocks of random uint32 per (seed, offset).", h::randint4x},
      {"tl.rand", kRandom, "Uniform float32 in [0, 1).", h::rand},
      {"tl.rand4x", kRandom, "Four blocks of uniform float32 in [0, 1).", h::rand4x},
      {"tl.randn", kRandom, "Standard normal float32 (Box-Muller).", h::randn},
      {"tl.randn4x", kRandom, "Four blocks of standard normal float32.", h::randn4x},
      {"tl.philox", "(seed, c0, c1, c2, c3, n_rounds=10)", "Philox on the counters (c0..c3) keyed by `seed`.", h::philox},
      {"tl.philox_impl", "(c0, c1, c2, c3, k0, k1, n_rounds=10)", "Philox rounds on explicit counters and key.", h::philox},
      {"tl.uint_to_uniform_float", "(x)", "Random (u)int32/64 to a float in [0, 1).", h::uintToUniformFloat},
      {"tl.pair_uniform_to_normal", "(u1, u2)", "Box-Muller: two uniforms to two normals.", h::pairUniformToNormal},
      //===--- compiler hints and debugging ---------------------------===//
      {"tl.multiple_of", "(input, values)", "Asserts each element is a multiple of `values`.", h::multipleOf},
      {"tl.max_contiguous", "(input, values)", "Asserts runs of `values` contiguous elements.", h::maxContiguous},
      {"tl.max_constancy", "(input, values)", "Asserts runs of `values` equal elements (accepted, unused).", h::maxConstancy, kPartial, "the hint is dropped"},
      {"tl.assume", "(cond)", "A condition the compiler may assume (accepted, unused).", h::noEffect, kPartial, "the assumption is dropped"},
      {"tl.condition", "(arg, disable_licm=False)", "A `while` loop's condition, with a loop hint (accepted, unused).", h::loopCondition, kPartial, "disable_licm is dropped"},
      {"tl.debug_barrier", "()", "A CTA-wide barrier (bar.sync 0).", h::debugBarrier},
      {"tl.static_assert", "(cond, msg='')", "Fails the compile unless `cond` holds.", h::staticAssert},
      {"tl.static_print", "(*values)", "Prints compile-time values while compiling.", h::staticPrint},
      {"tl.device_print", "(prefix, *args, hex=False)", "printf from the device.", h::devicePrint},
      {"tl.device_assert", "(cond, msg='', mask=None)", "A device-side assertion (accepted, not checked).", h::noEffect, kPartial, "not checked on the device"},
      //===--- types and iterators ------------------------------------===//
      {"tl.cast", "(input, dtype, fp_downcast_rounding=None, bitcast=False)", "`input` converted (or bit-cast) to `dtype`.", h::cast, kPartial,
       "fp_downcast_rounding='rtz' is not supported"},
      {"tl.to", "(input, dtype, fp_downcast_rounding=None, bitcast=False)", "x.to(dtype): the method form of tl.cast.", h::cast},
      {"tl.constexpr", "(value)", "A compile-time value.", h::constexprValue},
      {"tl.pointer_type", "(element_ty, address_space=1)", "The pointer dtype to `element_ty`.", h::pointerType},
      {"tl.range", "(arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None, warp_specialize=False, disallow_acc_multi_buffer=False, flatten=False, disable_licm=False)",
       "A runtime loop range (only as a for-loop iterable).", h::loopIterableOnly},
      {"tl.static_range", "(arg1, arg2=None, step=None)", "A loop unrolled at compile time (only as a for-loop iterable).", h::loopIterableOnly},
      //===--- tl.extra.cuda ------------------------------------------===//
      {"tl.extra.cuda.num_threads", "()", "The threads of a CTA (num_warps * 32), a compile-time constant.", h::cudaExtra},
      {"tl.extra.cuda.smid", "()", "The SM this thread runs on (%smid).", h::cudaExtra},
      {"tl.extra.cuda.globaltimer", "()", "The global nanosecond timer (%globaltimer), int64.", h::cudaExtra},
      //===--- triton.* -----------------------------------------------===//
      {"triton.cdiv", "(x, div)", "Ceiling division.", h::cdiv, Support::Full, "", {"txl.cdiv"}},
      {"triton.next_power_of_2", "(n)", "The smallest power of two >= n.", h::nextPowerOf2},
      {"triton.jit", "(fn)", "Decorator; not callable inside a kernel.", h::hostOnly, Support::Full, "", {"txl.jit"}},
      {"triton.autotune", "(configs, key)", "Decorator; not callable inside a kernel.", h::hostOnly, Support::Full, "", {"txl.autotune"}},
      {"triton.heuristics", "(values)", "Decorator; not callable inside a kernel.", h::hostOnly, Support::Full, "", {"txl.heuristics"}},
      {"triton.Config", "(kwargs, num_warps=4, num_stages=3)", "Autotuning configuration; not callable inside a kernel.", h::hostOnly, Support::Full, "", {"txl.Config"}},
      //===--- txl: identity ------------------------------------------===//
      {"txl.tid", "(axis)", "threadIdx along `axis`.", h::txlHardware},
      {"txl.bid", "(axis)", "blockIdx along `axis`.", h::txlHardware},
      {"txl.tdim", "(axis)", "blockDim along `axis`.", h::txlHardware},
      {"txl.bdim", "(axis)", "gridDim along `axis`.", h::txlHardware},
      {"txl.lane_id", "()", "The lane within the warp.", h::txlHardware},
      {"txl.warp_id", "()", "The warp within the CTA.", h::txlHardware},
      {"txl.warpgroup_id", "()", "The warpgroup within the CTA.", h::txlHardware},
      {"txl.cta_rank", "()", "The CTA's rank in its cluster.", h::txlHardware},
      {"txl.thread0", "()", "True on thread 0 of the first CTA.", h::txlHardware},
      {"txl.wg_thread0", "(wgid)", "True on the first thread of warpgroup `wgid`.", h::txlHardware},
      {"txl.is_warpgroup", "(ids)", "True in the warpgroups `ids` (a role condition).", h::txlHardware},
      {"txl.is_warp", "(ids)", "True in the warps `ids` (a role condition); ids past num_warps x num_warpgroups add up to num_warps warps to the launch (the TXL project's TMA/MMA warps).", h::txlHardware},
      //===--- txl: registers, barriers, clusters ---------------------===//
      {"txl.reg_alloc", "(count)", "setmaxnreg.inc for the calling warpgroup.", h::txlHardware, Support::Full, "", {}, 90, "txl.reg_alloc (setmaxnreg)"},
      {"txl.reg_dealloc", "(count)", "setmaxnreg.dec for the calling warpgroup.", h::txlHardware, Support::Full, "", {}, 90, "txl.reg_dealloc (setmaxnreg)"},
      {"txl.bar_arrive", "(id, nthreads)", "Arrives on named barrier `id` (barrier.arrive) without waiting.", h::txlHardware},
      {"txl.bar_wait", "(id, nthreads)", "Waits at named barrier `id` until `nthreads` threads arrived (barrier.sync).", h::txlHardware},
      {"txl.fence_proxy_async", "()", "fence.proxy.async.shared::cta.", h::txlHardware, Support::Full, "", {}, 90},
      {"txl.cluster_arrive", "()", "barrier.cluster.arrive.", h::txlHardware, Support::Full, "", {}, 90},
      {"txl.cluster_wait", "()", "barrier.cluster.wait.", h::txlHardware, Support::Full, "", {}, 90},
      {"txl.cluster_sync", "()", "barrier.cluster arrive + wait.", h::txlHardware, Support::Full, "", {}, 90},
      {"txl.warp_max", "(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False)",
       "tl.max whose axis lies within each warp (no shared memory).", h::txlHardware},
      {"txl.acc_to_dot_a", "(x)", "x, computed in a wgmma accumulator layout, as the register A operand of a tl.dot without moving data: its columns reordered within each group of 16 (16-bit) or 32 (fp8) by txl.acc_to_dot_a_columns (the identity for 16 bits); B's rows must be in the same order.", h::txlHardware},
      {"txl.warp_sum", "(input, axis=None, keep_dims=False, dtype=None)", "tl.sum whose axis lies within each warp (no shared memory).", h::txlHardware},
      //===--- txl: shared memory, mbarriers, TMA, cp.async -----------===//
      {"txl.smem_alloc", "(shape, dtype, num_stages=1, mutable=True, shared_enc=None)", "An array of `num_stages` shared buffers.", h::txlMemory},
      {"txl.get_buffer", "(bufs, index)", "One stage of an smem or mbarrier array (index may be dynamic).", h::txlMemory},
      {"txl.smem_index", "(buf, index)", "Sub-buffer `index` along the first dimension.", h::txlMemory},
      {"txl.smem_slice", "(buf, start, length, dim)", "A static window of a buffer along `dim`.", h::txlMemory},
      {"txl.smem_trans", "(buf, order=None)", "A permuted view of a buffer (also buf.T).", h::txlMemory},
      {"txl.smem_reshape", "(buf, shape)", "A reshaped view of a buffer.", h::txlMemory},
      {"txl.smem_load", "(smem, layout=None, cta_id=None)", "Reads a shared buffer into registers.", h::txlMemory},
      {"txl.smem_store", "(smem, value, cta_id=None, sync=True)", "Writes a register tensor to a shared buffer; sync=False leaves out the warpgroup barriers and async-proxy fence around the write (the kernel orders it).", h::txlMemory},
      {"txl.mbar_alloc", "(arr_count, num_stages=1)", "An array of mbarriers initialised to `arr_count`.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.mbar_expect", "(mbar, bytes, pred=None)", "Arrive and expect `bytes` of transactions.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.mbar_wait", "(mbar, phase)", "Waits until the phase of parity `phase` completes.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.mbar_arrive", "(mbar, pred=None, cta_id=None, track_async_op=False)", "Each calling thread arrives on `mbar`; with track_async_op=True, once its earlier txl.async_load copies have landed (cp.async.mbarrier.arrive.noinc: mbar_alloc's count includes these arrivals).", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.tma_load", "(value, desc, offsets, mbar, contiguity=None, multicast=None, two_ctas=False)", "TMA copy of a block into a shared buffer (two_ctas: the bytes count on the CTA pair's first barrier, sm_100a).", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.tma_store", "(value, desc, offsets, reduce=None)", "TMA copy of a shared buffer to global memory; with reduce='add' (or 'min', 'max', 'inc', 'dec', 'and', 'or', 'xor') combined with it element by element in L2.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.tma_store_wait", "(pendings)", "Waits until at most `pendings` TMA stores are in flight.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.tma_gather", "(dst_buf, desc, bar, row_offsets, col)", "TMA gather of rows into a shared buffer.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.prefetch_l2", "(ptr, nbytes, pred=None)", "Asks L2 for the `nbytes` contiguous global bytes at the scalar pointer `ptr` (cp.async.bulk.prefetch.L2: no shared memory, nothing to wait for), once per calling thread where `pred` holds; `ptr` 16-byte aligned, `nbytes` a multiple of 16.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.async_load", "(dst_buf, ptrs, mask=None, other=None, contiguity=-1)", "cp.async of a pointer tensor into a shared buffer (contiguity=N promises runs of N contiguous elements).", h::txlMemory},
      {"txl.async_load_wait", "(pendings)", "Waits until at most `pendings` cp.async groups are in flight.", h::txlMemory},
      {"txl.dot_wait", "(pendings)", "Waits until at most `pendings` wgmma groups are in flight.", h::txlMemory},
      {"txl.desc_load", "(desc, offsets)", "desc.load(offsets): TMA load of a block into registers.", h::txlMemory, Support::Full, "", {}, 90, "desc.load (TMA)"},
      {"txl.desc_store", "(desc, offsets, value)", "desc.store(offsets, value): TMA store of a register block.", h::txlMemory, Support::Full, "", {}, 90, "desc.store (TMA)"},
      {"txl.make_tensor_descriptor", "(base, shape, strides, block_shape, padding_option='zero')",
       "tl.make_tensor_descriptor under txl.", h::txlMemory, Support::Full, "", {}, 90, "tl.make_tensor_descriptor (TMA)"},
      {"txl.tmem_alloc", "(shape, dtype, num_stages=1)", "An array of `num_stages` [128, N] (or [64, N]) tensor-memory buffers (sm_100a).", h::txlMemory, kPartial, "[128, N] and [64, N] buffers only (128 lanes per CTA; a CTA pair holds M = 256)", {}, 100},
      {"txl.tmem_copy", "(dst, src, mbars=None, pred=None)", "Copies a shared [128, K] tile into a tensor-memory buffer (tcgen05.cp by one elected thread; committed to mbars).", h::txlMemory, Support::Full, "", {}, 100},
      {"txl.tmem_slice", "(buf, start, length)", "Columns [start, start + length) of a [128, N] tensor-memory buffer (sm_100a).", h::txlMemory, Support::Full, "", {}, 100},
      {"txl.tmem_load", "(buf, layout=None)", "Reads a tensor-memory buffer into registers (tcgen05.ld; layout= a message shape: 32x32b, 16x64b, 16x128b or 16x256b).", h::txlMemory, Support::Full, "", {}, 100},
      {"txl.tmem_store", "(buf, value, layout=None)", "Writes a register tensor into a tensor-memory buffer (tcgen05.st; layout= a message shape as for tmem_load).", h::txlMemory, Support::Full, "", {}, 100},
      {"txl.dotx", "(a, b, acc, useD=True, pred=None, mbars=None, mbarPreds=None, two_ctas=False)", "acc (+)= a @ b by tcgen05.mma from one thread, committed to `mbars` (sm_100a; mbarPreds[i] false skips the commit to mbars[i]; an mbarrier as the 4th argument is the TXL project's earlier dotx(a, b, acc, mbar)); two_ctas: a cta_group::2 MMA of a CTA pair, commits multicast to both.", h::txlMemory, kPartial, "M = 128 rows per CTA only (no M = 64); with two_ctas, A from shared memory", {}, 100},
      {"txl.clc_try_cancel", "(response, mbar)", "One thread asks to take over a program not yet launched (clusterlaunchcontrol.try_cancel, sm_100); the 16-byte response lands on every CTA of the cluster.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.clc_query", "(response)", "The program id (axis 0) a try_cancel response hands over, or -1.", h::txlMemory, Support::Full, "", {}, 90},
      {"txl.tcgen05_fence_before", "()", "tcgen05.fence::before_thread_sync.", h::txlMemory, Support::Full, "", {}, 100},
      {"txl.tcgen05_fence_after", "()", "tcgen05.fence::after_thread_sync.", h::txlMemory, Support::Full, "", {}, 100},
      //===--- txl: layouts -------------------------------------------===//
      {"txl.BlockedLayout", "(size_per_thread, threads_per_warp, warps_per_cta, order)", "A blocked register layout.", h::txlLayout},
      {"txl.SliceLayout", "(dim, parent)", "`parent` with dimension `dim` removed.", h::txlLayout},
      {"txl.NVMMADistributedLayout", "(version, warps_per_cta, instr_shape)", "An mma.sync (2) or wgmma (3) accumulator layout.", h::txlLayout},
      {"txl.DotOperandLayout", "(operand_index, parent, k_width)", "The layout of a dot operand held in registers.", h::txlLayout},
      {"txl.relayout", "(x, shape, layout)", "`x` reshaped to `shape` in `layout`.", h::txlLayout},
      {"txl.buffer_to", "(buf, dtype)", "buf.to(dtype) of a shared buffer: a no-op to the buffer's own dtype (else a located error).", h::txlHardware},
      {"txl.print", "(*values)", "tl.device_print with an empty prefix unless the first value is a string.", h::txlHardware},
      {"txl.print_layout", "(shape, dtype, layout)", "Prints which thread holds which element (at compile time).", h::txlLayout},
      {"txl.frag_smem_load", "(buf, shape, layout, other=None, pred=None)", "Reads a shared buffer in an explicit layout.", h::txlLayout},
      {"txl.frag_smem_store", "(buf, value, layout, pred=None, predStr='')", "Writes a shared buffer in an explicit layout; a scalar pred picks the writing threads, a tensor pred the written elements; predStr='slice:D' stores a value broadcast along D into a buffer without D.", h::txlLayout},
      //===--- Python's math module (compile-time numbers) ------------===//
      {"math.gcd", "(a, b)", "Greatest common divisor of compile-time integers.", h::mathGcd},
      {"math.log2", kUnary, "Compile-time log2.", h::mathConst},
      {"math.log", kUnary, "Compile-time natural log.", h::mathConst},
      {"math.log10", kUnary, "Compile-time log10.", h::mathConst},
      {"math.sqrt", kUnary, "Compile-time square root.", h::mathConst},
      {"math.exp", kUnary, "Compile-time exp.", h::mathConst},
      {"math.ceil", kUnary, "Compile-time ceiling (an int).", h::mathConst},
      {"math.floor", kUnary, "Compile-time floor (an int).", h::mathConst},
      {"math.isqrt", kUnary, "Compile-time integer square root.", h::mathConst},
      //===--- Python builtins ----------------------------------------===//
      {"range", "(start, stop=None, step=None)", "A loop range (only as a for-loop iterable).", h::loopIterableOnly},
      {"len", "(obj)", "Length of a tuple, string or tensor's first dimension.", h::pyLen},
      {"min", "(*args)", "Minimum of numbers, or element-wise minimum of tensors.", h::pyMinMax},
      {"max", "(*args)", "Maximum of numbers, or element-wise maximum of tensors.", h::pyMinMax},
      {"abs", "(x)", "Absolute value.", h::pyAbs},
      {"float", "(x=0.0)", "A compile-time float.", h::pyFloat},
      {"int", "(x=0)", "A compile-time int.", h::pyInt},
      {"bool", "(x=False)", "A compile-time bool.", h::pyBool},
      {"print", "(*values)", "Prints compile-time values while compiling.", h::pyPrint},
      {"isinstance", "(obj, cls)", "Compile-time type test (a class or a tuple of classes).", h::pyIsinstance},
      {"hasattr", "(obj, name)", "Compile-time test that an attribute exists.", h::pyHasattr},
      {"tuple", "(x=())", "A tuple.", h::pyTuple},
      {"list", "(x=())", "A tuple (lists are tuples in kernels).", h::pyTuple},
      {"enumerate", "(iterable, start=0)", "(index, item) pairs of a compile-time tuple (a for loop over it unrolls).", h::pyEnumerate},
      {"zip", "(*iterables)", "Tuples of the items of compile-time tuples, to the shortest (a for loop over it unrolls).", h::pyZip},
      {"round", "(number, ndigits=None)", "Python's round of a compile-time number (half to even).", h::pyRound},
      {"getattr", "(obj, name, default=None)", "The attribute `name` (a compile-time string) of obj, or `default`.", h::pyGetattr},
      // Resolve (as Python names) but fail when called.
      {"str", "(x)", "Not supported in kernels.", nullptr, kNotYet},
  };
  return t;
}
// clang-format on

} // namespace

const std::vector<BuiltinInfo> &allBuiltins() {
  static const std::vector<BuiltinInfo> table = buildTable();
  return table;
}

const BuiltinInfo *findBuiltin(const std::string &name) {
  static const std::map<std::string, const BuiltinInfo *> index = [] {
    std::map<std::string, const BuiltinInfo *> m;
    for (const BuiltinInfo &e : allBuiltins()) {
      m[e.name] = &e;
      for (const char *a : e.aliases)
        m[a] = &e;
    }
    return m;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

} // namespace txl::irgen

namespace txl {

/// One line per entry, tab-separated: name, aliases (comma-separated),
/// support (supported/partial/not yet), minimum SM (0: any), parameter
/// list, doc, note. scripts/gen_builtins.py turns it into
/// docs/compatibility.md and python/txl/_builtins.py.
std::string listBuiltins() {
  std::ostringstream os;
  for (const irgen::BuiltinInfo &e : irgen::allBuiltins()) {
    std::string aliases;
    for (const char *a : e.aliases)
      aliases += std::string(aliases.empty() ? "" : ",") + a;
    const char *support = e.support == irgen::Support::Full      ? "supported"
                          : e.support == irgen::Support::Partial ? "partial"
                                                                 : "not yet";
    os << e.name << '\t' << aliases << '\t' << support << '\t' << e.minSm
       << '\t' << e.params << '\t' << e.doc << '\t' << e.note << '\n';
  }
  return os.str();
}

} // namespace txl
