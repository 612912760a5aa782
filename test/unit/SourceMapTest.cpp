// Source lines of listing rows (SourceMap.h) on small hand-written inputs
// in each stage's real syntax, and the SASS instruction classes.
#include "txl/Viewer/SourceMap.h"
#include "txl/Viewer/KernelViewer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace txl;

namespace {

std::vector<int> linesOf(const std::vector<ListingRow> &rows) {
  std::vector<int> lines;
  for (const ListingRow &row : rows)
    lines.push_back(row.line);
  return lines;
}

TEST(SourceMap, MlirAliasesInlineFusedAndOtherFiles) {
  const char *ir = R"(#loc1 = loc("dir/k.py":4:1)
#loc2 = loc("k.py":7:9)
#loc3 = loc(callsite(#loc2 at #loc1))
#loc4 = loc("helpers.py":3:5)
#loc5 = loc(fused[#loc4, "k.py":9:2])
module {
  %0 = arith.constant 2 : i32 loc(#loc2)
  %1 = arith.addi %0, %0 : i32 loc(#loc3)
  %2 = arith.muli %0, %0 : i32 loc("k.py":8:3)
  %3 = arith.subi %0, %0 : i32 loc(#loc4)
  %4 = arith.divsi %0, %0 : i32 loc(#loc5)
  ^bb0(%a: i32 loc("k.py":4:1)):
} loc(#loc1)
)";
  auto rows = mapMlirListing(ir, "/abs/dir/k.py");
  EXPECT_EQ(linesOf(rows), (std::vector<int>{0, 7, 7, 8, 0, 9, 0, 4}));
  EXPECT_EQ(rows[1].text, "  %0 = arith.constant 2 : i32");
  EXPECT_EQ(rows[6].text, "  ^bb0(%a: i32):");
}

TEST(SourceMap, MlirWithoutLocationsMapsNothing) {
  auto rows =
      mapMlirListing("module {\n  %0 = arith.constant 1 : i32\n}\n", "k.py");
  EXPECT_EQ(linesOf(rows), (std::vector<int>{0, 0, 0}));
}

TEST(SourceMap, LlvmDebugLocations) {
  const char *ir = R"(define void @k() !dbg !4 {
  %1 = add i32 1, 2, !dbg !7
  ret void, !dbg !8
}
!7 = !DILocation(line: 5, column: 9, scope: !4)
!8 = !DILocation(line: 11, column: 1, scope: !4)
)";
  auto rows = mapLlvmListing(ir);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(linesOf(rows), (std::vector<int>{0, 5, 11, 0}));
  EXPECT_EQ(rows[1].text, "  %1 = add i32 1, 2");
}

TEST(SourceMap, PtxLocDirectivesOfTheSourceFileOnly) {
  const char *ptx = R"(.file 1 "/x/k.py"
.file 2 "helpers.py"
.visible .entry k()
{
	.loc	1 5 9
	mov.u32 	%r1, %tid.x;
	.loc	2 3 1
	add.s32 	%r2, %r1, 1;
$L__BB0_1:
	.loc	1 6 2
	ret;
}
	.section	.debug_info
	{ .b8 0 }
)";
  auto rows = mapPtxListing(ptx, "k.py");
  std::vector<int> expected = {0, 0, 0, 0, 5, 0, 0, 6, 0};
  EXPECT_EQ(linesOf(rows), expected);
  EXPECT_EQ(rows.back().text, "}"); // the DWARF section is left out
}

TEST(SourceMap, SassFileComments) {
  const char *sass = R"(add:
	//## File "k.py", line 4
        /*0000*/                   LDC R1, c[0x0][0x28] ;
	//## File "other.py", line 2
        /*0010*/                   S2R R7, SR_TID.X ;
	//## File "/a/k.py", line 6
        /*0020*/              @!P0 HGMMA.64x128x16.F32 R24, gdesc[UR4], RZ ;
.L_x_1:
)";
  auto rows = mapSassListing(sass, "k.py");
  EXPECT_EQ(linesOf(rows), (std::vector<int>{0, 4, 0, 6, 0}));
}

TEST(SourceMap, SassInstructionClasses) {
  auto cls = [](const char *row) { return sassInstructionClass(row).str(); };
  EXPECT_EQ(cls("/*0020*/ @!P0 HGMMA.64x128x16.F32 R24, gdesc[UR4], RZ ;"),
            "tensor");
  EXPECT_EQ(cls("/*0030*/ HMMA.16816.F32 R4, R8, R12, R4 ;"), "tensor");
  EXPECT_EQ(cls("/*0040*/ UTMALDG.2D [UR8], [UR10] ;"), "memory");
  EXPECT_EQ(cls("/*0050*/ LDGSTS.E.BYPASS.128 [R3], desc[UR6][R4.64] ;"),
            "memory");
  EXPECT_EQ(cls("/*0060*/ SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R2+URZ], R3 ;"),
            "barrier");
  EXPECT_EQ(cls("/*0070*/ WARPGROUP.DEPBAR.LE gsb0, 0x0 ;"), "barrier");
  EXPECT_EQ(cls("/*0080*/ BAR.SYNC.DEFER_BLOCKING 0x0 ;"), "barrier");
  EXPECT_EQ(cls("/*0090*/ FFMA R1, R2, R3, R4 ;"), "alu");
  EXPECT_EQ(cls(".L_x_1:"), "");
  EXPECT_EQ(cls("	//## File \"k.py\", line 4"), "");
}

TEST(KernelViewer, PageCarriesTheDataAndStaysOneScriptElement) {
  ViewerInput input;
  input.source = "x = 1\n# </script><script>alert(1)</script>\n";
  input.sourceFile = "k.py";
  input.ptx = ".file 1 \"k.py\"\n.loc 1 1 0\nmov.u32 %r1, 1;\n";
  input.sassMissing = "nvdisasm not found";
  input.metadataJson = R"({"name": "k", "shared_bytes": 0})";
  std::string page = renderKernelViewer(input);
  EXPECT_EQ(page.find("/*TXL_VIEWER_DATA*/"), std::string::npos);
  EXPECT_NE(page.find("nvdisasm not found"), std::string::npos);
  EXPECT_NE(page.find("<\\/script><script>alert(1)<\\/script>"),
            std::string::npos);
  // The page's own script element plus nothing injected from the source.
  size_t scripts = 0;
  for (size_t at = 0; (at = page.find("</script>", at)) != std::string::npos;
       ++at)
    ++scripts;
  EXPECT_EQ(scripts, 1u);
}

// The parsers read compiler output, but a dump edited by hand (txl-opt,
// --to-ptx) or a truncated file reaches them too: random splices of their
// syntax never crash or loop, and every line they return is a real line.
TEST(SourceMap, RandomSplicesOfTheSyntax) {
  const char *pieces[] = {"loc(",  "#loc", "\"",   ":",        "1",
                          "99999999999999", ")",  " = ",  "\n",  ".loc",
                          ".file", " 1 ",  "!dbg !", "!DILocation(line: ",
                          "//## File \"", "\", line ", "/*0010*/ ",
                          "@P0 ",  "HGMMA", "callsite(", " at ", "fused[",
                          "]",     ".section .debug", "k.py", " "};
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    int n = rng() % 40;
    for (int i = 0; i < n; ++i)
      text += pieces[rng() % std::size(pieces)];
    size_t lines = std::count(text.begin(), text.end(), '\n') + 1;
    for (const auto &rows :
         {mapMlirListing(text, "k.py"), mapLlvmListing(text),
          mapPtxListing(text, "k.py"), mapSassListing(text, "k.py")}) {
      EXPECT_LE(rows.size(), lines) << text;
      for (const ListingRow &row : rows)
        EXPECT_GE(row.line, 0) << text;
    }
    sassInstructionClass(text);
  }
}

} // namespace
