//===- Metadata.h - Launch-relevant kernel metadata ------------*- C++ -*-===//
//
// The runtime needs a few facts about a compiled kernel to launch it; on a
// cache hit they come back from NAME.json. The parser accepts snake_case and
// camelCase keys so that it does not depend on one spelling of
// CompiledKernel::metadataJson:
//   name, target, num_warps|numWarps, num_warpgroups|numWarpgroups,
//   shared_bytes|sharedBytes|shared, cluster_dims|clusterDims [x,y,z],
//   cubin_producer|cubinProducer, source_hash|sourceHash,
//   params|launch_params: [{name, type, size|size_bytes|sizeBytes}]
//
//===----------------------------------------------------------------------===//
#ifndef TXL_RUNTIME_METADATA_H
#define TXL_RUNTIME_METADATA_H

#include "txl/Pipeline/Pipeline.h"

#include <string>

namespace txl {

/// Fills the launch fields of `kernel` (name, target, numWarps,
/// numWarpgroups, sharedBytes, clusterDims, params, cubinProducer,
/// sourceHash) from metadata JSON. False with `error` on malformed JSON or
/// missing required keys (name, num_warps, params).
bool parseKernelMetadata(const std::string &json, CompiledKernel &kernel,
                         std::string &error);

/// True if the launch fields of `a` and `b` agree.
bool sameLaunchFields(const CompiledKernel &a, const CompiledKernel &b);

/// The metadata the C API hands out: `producerJson` (the compiler's object,
/// may be empty) with the canonical snake_case launch keys (over)written
/// from `kernel`, plus cache_key and cache_hit.
std::string canonicalMetadataJson(const std::string &producerJson,
                                  const CompiledKernel &kernel,
                                  const std::string &cacheKey, bool cacheHit);

} // namespace txl

#endif // TXL_RUNTIME_METADATA_H
