//===- ClusterLaunchControlOpToLLVM.cpp - work stealing on sm_100 ---------===//
//
// Cluster launch control (sm_100) lets a running cluster take over the work
// of a cluster that has not been launched yet: try_cancel atomically
// cancels one pending cluster's launch and reports which one (its first
// CTA's id) in a 16-byte response that lands in shared memory and
// completes 16 transaction bytes on an mbarrier; query_cancel decodes the
// response. A persistent kernel launched with one program per tile loops
// "do my tile, then steal the next", so it adapts to however many SMs are
// free, rather than fixing a grid of NUM_SMS programs.
//
// In a cluster, one CTA asks for the whole cluster (.multicast::cluster::
// all writes the response, and completes the bytes, at the same offsets in
// every CTA of the cluster), so all CTAs learn the same next program.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

using namespace mlir;
using namespace mlir::txl;

namespace {

struct ClcTryCancelOpToLLVM
    : public ConvertOpToLLVMPattern<txlgpu::ClcTryCancelOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::ClcTryCancelOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value issue = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, ctaWarpId(rewriter, loc),
        i32Const(rewriter, loc, op.getLeaderWarp()));
    issue =
        LLVM::AndOp::create(rewriter, loc, issue,
                            NVVM::ElectSyncOp::create(
                                rewriter, loc, rewriter.getI1Type(), Value()));
    bool cluster = clusterSizeOf(op) > 1;
    if (cluster) // one request per cluster, from the CTA of rank 0
      issue = LLVM::AndOp::create(
          rewriter, loc, issue,
          LLVM::ICmpOp::create(
              rewriter, loc, LLVM::ICmpPredicate::eq,
              NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type()),
              i32Const(rewriter, loc, 0)));
    ifThen(rewriter, loc, issue, [&] {
      NVVM::ClusterLaunchControlTryCancelOp::create(
          rewriter, loc, /*multicast=*/cluster, adaptor.getResponse(),
          adaptor.getBar());
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClcQueryOpToLLVM : public ConvertOpToLLVMPattern<txlgpu::ClcQueryOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(txlgpu::ClcQueryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i128 = rewriter.getIntegerType(128);
    Value response = LLVM::LoadOp::create(rewriter, loc, i128,
                                          adaptor.getResponse(), /*align=*/16);
    auto query = [&](NVVM::ClusterLaunchControlQueryType kind, Type type) {
      return NVVM::ClusterLaunchControlQueryCancelOp::create(
          rewriter, loc, type,
          NVVM::ClusterLaunchControlQueryTypeAttr::get(getContext(), kind),
          response);
    };
    Value canceled = query(NVVM::ClusterLaunchControlQueryType::IS_CANCELED,
                           rewriter.getI1Type());
    Value firstCta =
        query(NVVM::ClusterLaunchControlQueryType::GET_FIRST_CTA_ID_X,
              rewriter.getI32Type());
    // tl.program_id counts clusters: the canceled cluster's program id is
    // its first CTA's id over the cluster size.
    Value program = LLVM::UDivOp::create(
        rewriter, loc, firstCta, i32Const(rewriter, loc, clusterSizeOf(op)));
    rewriter.replaceOp(op,
                       LLVM::SelectOp::create(rewriter, loc, canceled, program,
                                              i32Const(rewriter, loc, -1)));
    return success();
  }
};

} // namespace

void mlir::txl::populateClusterLaunchControlOpPatterns(
    TXLTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ClcTryCancelOpToLLVM, ClcQueryOpToLLVM>(tc);
}
