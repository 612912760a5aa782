//===- FakePipeline.h - A stand-in compiler for runtime tests --*- C++ -*-===//
//
// FakePipeline.cpp implements txl/Pipeline/Pipeline.h without MLIR: it
// "compiles" any kernel whose `def NAME(` appears in the source into a
// hand-written PTX kernel out[i] = x[i] + y[i] (i < n) taking the
// signature's runtime parameters. Globals SMEM_BYTES and CLUSTER_X set the
// dynamic shared memory (staged through) and cluster width.
//
//===----------------------------------------------------------------------===//
#ifndef TXL_TEST_UNIT_FAKEPIPELINE_H
#define TXL_TEST_UNIT_FAKEPIPELINE_H

namespace txl {
namespace fake {
/// How many times compileKernel ran (cache tests count misses with it).
extern int compileCount;
} // namespace fake
} // namespace txl

#endif
