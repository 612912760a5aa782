//===- Pipeline.h - The whole compile, source to cubin ---------*- C++ -*-===//
//
// The single entry point from source text to artifacts. The stage list itself
// lives in lib/Pipeline/Pipeline.cpp; this header is what tools, the runtime
// and the C API see. No MLIR or LLVM types leak through it.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_PIPELINE_PIPELINE_H
#define TXL_PIPELINE_PIPELINE_H

#include "txl/Target/PtxasReport.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace txl {

/// The largest source file txl compiles (16 MiB): more is not a kernel
/// file (a device such as /dev/zero read by mistake, or generated junk).
constexpr size_t kMaxSourceBytes = size_t(16) << 20;

/// One kernel parameter's specialization, in parameter order. Mirrors
/// Triton's compile.py signature: "*fp16:16" is a pointer to fp16 known to be
/// 16-byte aligned, "i32:16" an integer divisible by 16, "i32:1" an integer
/// equal to 1 (folded), "1024" a constexpr, "none" a None argument,
/// "tensordesc<fp16[128, 64]>" a host TMA descriptor whose block is 128x64.
struct ArgSpec {
  enum class Kind { Pointer, Scalar, Constexpr, None, TensorDesc };
  Kind kind = Kind::Scalar;
  /// Element type for pointers, value type for scalars: i1 i8 i16 i32 i64
  /// u8 u16 u32 u64 fp8e4nv fp8e5 fp16 bf16 fp32 fp64.
  std::string type;
  /// Constexpr value as source text ("1024", "True", "1.5", "tl.float16").
  std::string constValue;
  /// Known divisibility (pointers: in bytes; integers: of the value).
  int divisibility = 1;
  /// Integer known to equal 1 (Triton specializes and folds it).
  bool equalsOne = false;
  /// TensorDesc: the block shape, outermost dimension first.
  std::vector<int64_t> block;
};

/// Parses a comma-separated Triton-style signature. Returns false and sets
/// `error` on malformed text.
bool parseSignature(const std::string &text, std::vector<ArgSpec> &out,
                    std::string &error);

/// The signature text parseSignature reads back to the same specs.
std::string formatSignature(const std::vector<ArgSpec> &signature);

struct CompileOptions {
  std::string kernelName;
  std::string target = "sm_90a"; ///< sm_80 | sm_90a | sm_100a
  int numWarps = 4;
  int numWarpgroups = 1;
  int numStages = 3;
  int numCtas = 1;
  /// Registers per thread the kernel may use (PTX .maxnreg); 0: no cap.
  int maxnreg = 0;
  /// Contract a*b + c into one fma (Triton's enable_fp_fusion); false
  /// keeps every multiply and add separately rounded.
  bool enableFpFusion = true;
  /// libdevice's __nvvm_reflect("__CUDA_FTZ") answer (Triton's
  /// enable_reflect_ftz): true takes its fp32 flush-to-zero forms.
  bool enableReflectFtz = true;
  bool lineInfo = true;
  /// Print the IR before/after every pass to stderr (TXL_DUMP_IR).
  bool dumpIR = false;
  /// When set, write each stage's input and the IR after each of its
  /// passes into this directory, one file per pass (see PassDumps.h).
  std::string printAfterAllDir;
  /// Print source locations (loc(...)) in the .txlir/.txlgir artifacts and
  /// the pass dumps, so a line of IR can be traced to the kernel's source.
  bool dumpLocations = false;
  /// When set, this file's PTX (a hand-edited copy of a dump) replaces the
  /// PTX the compiler makes; the front end still runs for the metadata.
  std::string ptxOverrideFile;
  /// The libdevice to link (launch kwarg extern_libs={"libdevice": path});
  /// "" finds one (TranslateOptions::libdevicePath).
  std::string libdevicePath;
  /// Skip the cubin step (PTX only).
  bool skipCubin = false;
  /// Bound every mbarrier wait (TXL_DEBUG_SYNC=1): past
  /// `debugSyncTimeoutMs` the waiting thread records where it waited in a
  /// host-visible record and traps, so a deadlock fails instead of hanging.
  bool debugSync = false;
  int debugSyncTimeoutMs = 5000;
  std::vector<ArgSpec> signature;
  /// Module-level names the kernel reads that are not in the source text
  /// (handed over by the Python package): name -> value as source text.
  std::map<std::string, std::string> globals;
  /// A Python module the kernel's file imports (jit helpers, constants):
  /// its file name, its text and its own `globals` as above.
  struct ModuleSource {
    std::string path;
    std::string text;
    std::map<std::string, std::string> globals;
  };
  /// Modules handed over by the Python package (the kernel's source
  /// closure), by dotted name; found before any search.
  std::map<std::string, ModuleSource> modules;
  /// Directories searched for other imported modules (txlc -I), after the
  /// importing file's own directory, as Python's sys.path.
  std::vector<std::string> includeDirs;
};

/// A kernel parameter as it exists at launch time (constexprs are gone).
struct LaunchParam {
  std::string name;
  /// "ptr", a scalar type name from ArgSpec::type, or "tensordesc" (a
  /// 128-byte CUtensorMap the host encodes from the fields below).
  std::string type;
  int sizeBytes = 8;
  /// tensordesc only: element type, block and TMA box (outermost first; the
  /// box's last dimension may be narrower than the block's: the kernel then
  /// copies a block as several boxes) and the smem swizzle (0/32/64/128
  /// bytes) the kernel's buffers use, which the map must be encoded with.
  std::string elementType;
  std::vector<int64_t> block, box;
  int swizzleBytes = 0;
};

/// One shared-memory buffer as AllocateSharedMemory placed it.
struct SharedBufferPlacement {
  std::string op; ///< the op that owns it (smem_alloc, convert_layout, ...)
  int line = 0;   ///< its source line (0: unknown)
  int offset = 0;
  int bytes = 0;
  /// Live for the whole kernel; otherwise it may share bytes with buffers
  /// live at other times.
  bool wholeKernel = false;
};

struct CompiledKernel {
  std::string name;
  std::string target;
  std::string txlir;   ///< tile IR after the front end
  std::string txlgir;  ///< GPU IR after layout assignment and GPU passes
  std::string llir;    ///< optimized LLVM IR
  std::string ptx;
  std::vector<char> cubin;
  std::string cubinProducer; ///< "nvjitlink" | "ptxas" | "driver" (PTX only)
  int numWarps = 4;
  int numWarpgroups = 1;
  /// Warps launched beyond numWarps x numWarpgroups for txl.is_warp roles
  /// (txlgpu::kNumExtraWarpsAttr; "num_extra_warps" in the metadata).
  int numExtraWarps = 0;
  int threadsPerCTA() const {
    return 32 * (numWarps * numWarpgroups + numExtraWarps);
  }
  int sharedBytes = 0;
  /// Where each shared buffer lives ("shared_plan" in the metadata).
  std::vector<SharedBufferPlacement> sharedPlan;
  /// Bytes of global scratch one program needs (in-kernel TMA
  /// descriptors, tl.make_tensor_descriptor): the runtime allocates grid
  /// size x this and passes it as a hidden last kernel parameter, after
  /// `params`. 0: no hidden parameter.
  int globalScratchBytes = 0;
  int clusterDims[3] = {1, 1, 1};
  /// Compiled with bounded mbarrier waits (see CompileOptions::debugSync):
  /// the runtime then gives the module a record and checks it after
  /// each launch.
  bool debugSync = false;
  std::vector<LaunchParam> params;
  std::string sourceHash;
  std::string sourceFile; ///< the file name diagnostics and reports use
  /// The assembler's resource report (registers, spills, performance
  /// warnings); unknown when the driver JITs the PTX.
  PtxasReport ptxas;
  /// Everything above that is not an artifact, as JSON (NAME.json).
  std::string metadataJson() const;
  /// The assembler's warnings as "file:line: warning: ..." lines naming
  /// the kernel ("" when there are none).
  std::string assemblerWarnings() const;
};

/// Compiles kernel `options.kernelName` found in `source` (file `fileName`,
/// used in diagnostics and line info). On a user error returns false with
/// `diagnostics` holding "file:line:col: error: ..." plus source line and
/// caret. Never aborts on user input.
bool compileKernel(const std::string &source, const std::string &fileName,
                   const CompileOptions &options, CompiledKernel &out,
                   std::string &diagnostics);

/// One pass of the pipeline: `number` counts every pass of every stage
/// from 1, `stageNumber` counts within its stage (what diff_select means).
struct PassInfo {
  int number;
  std::string stage; ///< "txlir" | "txlgir" | "llvm"
  int stageNumber;
  std::string argument; ///< the pass's txl-opt flag, e.g. "cse"
  std::string description;
};

/// Every pass the pipeline runs for `options`, in order.
std::vector<PassInfo> listPasses(const CompileOptions &options);

/// The passes of stage `stage` ("txlir", "txlgir" or "llvm") whose overall
/// number (as listPasses counts) is above `afterPass`, as a textual
/// pipeline (`builtin.module(...)`, txl-opt's --pass-pipeline syntax);
/// "" when none remain. How a dumped module resumes the pipeline.
std::string remainingStagePipeline(const CompileOptions &options,
                                   const std::string &stage, int afterPass);

/// Steps 6-7 on a module in the LLVM dialect: LLVM IR (optimized, with
/// libdevice) and PTX into out.llir and out.ptx. False with `error` set.
bool emitLLVMIRAndPTX(mlir::ModuleOp module, const CompileOptions &options,
                      CompiledKernel &out, std::string &error);

/// txl-opt --to-ptx: finishes the pipeline from IR dumped anywhere in it
/// (`irText`, named `fileName`). `afterPass` is the last pass the IR has
/// been through (listPasses' numbering; 0: none). Launch options recorded
/// in the module (num_warps, num_warpgroups, target, num_ctas) override
/// `options`. Fills the artifacts after the input's stage, the cubin
/// unless options.skipCubin. False with `diagnostics` set.
bool finishPipeline(const std::string &irText, const std::string &fileName,
                    int afterPass, CompileOptions options, CompiledKernel &out,
                    std::string &diagnostics);

/// What compileKernel is doing now ("stage 'gpu', pass
/// 'txl-assign-layouts', kernel 'k' of f.py"), or "" outside it: a crash
/// handler prints it. It lives in a static buffer (safe to read from a
/// signal handler); one compile at a time is described.
const char *currentCompileStep();

/// The compiler's version string, part of every cache key.
const char *compilerVersion();

} // namespace txl

#endif // TXL_PIPELINE_PIPELINE_H
