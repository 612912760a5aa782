//===- PtxasReportTest.cpp - ptxas's resource report, parsed
//---------------===//
#include "txl/Target/PtxasReport.h"
#include "txl/Target/Cubin.h"

#include <gtest/gtest.h>

using namespace txl;

namespace {

// Twelve PTX lines; the .loc directives put lines 5-8 at source line 41 and
// lines 9- at source line 57.
const char *kPtx = R"(//
.version 8.6
.target sm_90a
.address_size 64
	.loc	1 41 5
	mov.u32 	%r1, 1;
	mov.u32 	%r2, 2;
	add.s32 	%r3, %r1, %r2;
	.loc	1 57 9
	wgmma.fence.sync.aligned;
	ret;
}
)";

const char *kLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'other' for 'sm_90a'\n"
    "ptxas info    : Function properties for other\n"
    "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 0 barriers\n"
    "ptxas info    : Compiling entry function 'attn_fwd' for 'sm_90a'\n"
    "ptxas info    : Function properties for attn_fwd\n"
    "    0 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 168 registers, used 1 barriers, 400 bytes cmem[0]\n"
    "ptxas /tmp/txl-1.ptx, line 10; warning : (C7510) Potential Performance "
    "Loss: wgmma.mma_async instructions are serialized\n"
    "ptxas warning : (C7508) Potential Performance Loss: setmaxnreg ignored\n"
    "ptxas info    : (C7517) warpgroup.wait is injected in around line 574\n"
    "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async "
    "instructions are serialized due to non wgmma instructions reading "
    "accumulator registers\n";

TEST(PtxasReport, ReadsTheNamedEntrysResources) {
  PtxasReport report = parsePtxasReport(kLog, "attn_fwd", kPtx);
  ASSERT_TRUE(report.known());
  EXPECT_EQ(report.registers, 168);
  EXPECT_EQ(report.stackBytes, 0);
  EXPECT_EQ(report.spillStoreBytes, 16);
  EXPECT_EQ(report.spillLoadBytes, 12);
  EXPECT_EQ(report.spillBytes(), 16);
  PtxasReport other = parsePtxasReport(kLog, "other", kPtx);
  EXPECT_EQ(other.registers, 40);
  EXPECT_EQ(other.stackBytes, 8);
}

TEST(PtxasReport, WarningsKeepCodeAndSourceLine) {
  PtxasReport report = parsePtxasReport(kLog, "attn_fwd", kPtx);
  // The C7514 info line (a performance loss) counts; the C7517 one not.
  ASSERT_EQ(report.warnings.size(), 3u);
  EXPECT_EQ(report.warnings[0].code, "C7510");
  EXPECT_EQ(report.warnings[0].ptxLine, 10);
  EXPECT_EQ(report.warnings[0].sourceLine, 57);
  EXPECT_NE(report.warnings[0].message.find("serialized"), std::string::npos);
  EXPECT_EQ(report.warnings[0].message.find("C7510"), std::string::npos);
  EXPECT_EQ(report.warnings[1].code, "C7508");
  EXPECT_EQ(report.warnings[1].ptxLine, 0);
  EXPECT_EQ(report.warnings[1].sourceLine, 0);
  EXPECT_EQ(report.warnings[2].code, "C7514");
  EXPECT_EQ(report.warnings[2].ptxLine, 0);
  EXPECT_NE(report.warnings[2].message.find("serialized"), std::string::npos);
}

TEST(PtxasReport, SourceLineOfPtxLine) {
  EXPECT_EQ(sourceLineOfPtxLine(kPtx, 4), 0);
  EXPECT_EQ(sourceLineOfPtxLine(kPtx, 5), 41);
  EXPECT_EQ(sourceLineOfPtxLine(kPtx, 8), 41);
  EXPECT_EQ(sourceLineOfPtxLine(kPtx, 9), 57);
  EXPECT_EQ(sourceLineOfPtxLine(kPtx, 1000), 57);
}

TEST(PtxasReport, GarbageLeavesFieldsUnknown) {
  PtxasReport report =
      parsePtxasReport("no report here\n\x01\xff Used registers\n", "k", "");
  EXPECT_FALSE(report.known());
  EXPECT_EQ(report.spillBytes(), 0);
  EXPECT_TRUE(report.warnings.empty());
}

// The real assembler's log, through whichever assembler this machine has.
TEST(PtxasReport, RealAssemblerReportsRegisters) {
  if (!nvJitLinkAvailable() && findPtxas().empty())
    GTEST_SKIP() << "no assembler on this machine";
  const char *ptx = R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry tiny(.param .u64 p) {
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  std::vector<char> cubin;
  std::string producer, log;
  ASSERT_TRUE(assembleCubin(ptx, "sm_90a", cubin, producer, log)) << log;
  PtxasReport report = parsePtxasReport(log, "tiny", ptx);
  EXPECT_TRUE(report.known()) << producer << " log:\n" << log;
  EXPECT_GT(report.registers, 0);
  EXPECT_EQ(report.spillBytes(), 0);
}

} // namespace
