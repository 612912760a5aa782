//===- TCGen05Test.cpp - block-scaled tcgen05 encodings ---------------===//
//
// A wrong bit in a block-scaled instruction descriptor or a scale factor
// in the wrong tensor-memory byte assembles fine and is silently wrong on
// the hardware, and no Blackwell GPU runs txl's tests. So the expected
// values below are not computed by the code under test: each was worked
// out by hand from the PTX ISA (9.0) tables, field by field, and is
// written as the sum of its fields.
//
//===----------------------------------------------------------------------===//
#include "txl/Dialect/TXLGPU/IR/TCGen05.h"

#include <gtest/gtest.h>

#include <set>

using namespace mlir::txlgpu;

// "Instruction descriptor format for .kind::mxf8f6f4": atype/btype E4M3 =
// 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5. "... for .kind::mxf4 and
// .kind::mxf4nvf4": E2M1 = 1 (2-bit btype at 10-11).
TEST(TCGen05, BlockScaledFormatCodes) {
  EXPECT_EQ(blockScaledFormatCode(BlockScaledKind::MXF8F6F4, "e4m3"), 0u);
  EXPECT_EQ(blockScaledFormatCode(BlockScaledKind::MXF8F6F4, "e5m2"), 1u);
  EXPECT_EQ(blockScaledFormatCode(BlockScaledKind::MXF8F6F4, "e2m1"), 5u);
  EXPECT_EQ(blockScaledFormatCode(BlockScaledKind::MXF4, "e2m1"), 1u);
  EXPECT_FALSE(blockScaledFormatCode(BlockScaledKind::MXF4, "e4m3"));
  EXPECT_FALSE(blockScaledFormatCode(BlockScaledKind::MXF8F6F4, "bf16"));
  EXPECT_FALSE(blockScaledFormatCode(BlockScaledKind::MXF8F6F4, "fp16"));
}

// mxf8f6f4, e4m3 x e4m3, M = 128, N = 128, both data IDs 0:
//   bits 17-22 N >> 3 = 16          -> 16 << 17 = 0x00200000
//   bit 23 scale type UE8M0 = 1     ->            0x00800000
//   bits 27-28 M >> 7 = 1           ->  1 << 27 = 0x08000000
TEST(TCGen05, BlockScaledDescriptorMxf8f6f4) {
  EXPECT_EQ(blockScaledInstructionDescriptor(0, 0, 128, 128, 0, 0),
            0x00200000u + 0x00800000u + 0x08000000u);
  // e5m2 (A) x e4m3 (B), N = 64, both data IDs 3:
  //   bits 4-5 B ID 3 -> 0x30; bits 7-9 atype 1 -> 0x80;
  //   N >> 3 = 8 -> 0x00100000; UE8M0 0x00800000; M 0x08000000;
  //   bits 29-30 A ID 3 -> 0x60000000.
  EXPECT_EQ(blockScaledInstructionDescriptor(1, 0, 64, 128, 3, 3),
            0x30u + 0x80u + 0x00100000u + 0x00800000u + 0x08000000u +
                0x60000000u);
  // e2m1 (5, A) x e5m2 (1, B), N = 256, A ID 1, B ID 2:
  //   B ID 2 -> 0x20; atype 5 << 7 = 0x280; btype 1 << 10 = 0x400;
  //   N >> 3 = 32 -> 0x00400000; UE8M0; M; A ID 1 -> 0x20000000.
  EXPECT_EQ(blockScaledInstructionDescriptor(5, 1, 256, 128, 1, 2),
            0x20u + 0x280u + 0x400u + 0x00400000u + 0x00800000u + 0x08000000u +
                0x20000000u);
  // M = 256 (a cta_group::2 pair) is M >> 7 = 2 in bits 27-28.
  EXPECT_EQ(blockScaledInstructionDescriptor(0, 0, 128, 256, 0, 0),
            0x00200000u + 0x00800000u + 0x10000000u);
}

// mxf4, e2m1 x e2m1 (code 1), N = 128, data IDs 2 (the second halfword of
// the scale column, scale_vec::2X): B ID 2 -> 0x20; atype 1 -> 0x80;
// btype 1 -> 0x400; N 0x00200000; UE8M0 0x00800000; M 0x08000000;
// A ID 2 -> 0x40000000. Bit 31 (K = 96) stays 0: K = 64.
TEST(TCGen05, BlockScaledDescriptorMxf4) {
  EXPECT_EQ(blockScaledInstructionDescriptor(1, 1, 128, 128, 2, 2),
            0x20u + 0x80u + 0x400u + 0x00200000u + 0x00800000u + 0x08000000u +
                0x40000000u);
}

// mxf4nvf4 (nvfp4), e2m1 x e2m1 (code 1, the mxf4 table's), UE4M3 scales:
// bit 23 (scale matrix type) is 0, and scale_vec::4X reads all four bytes
// of a column, so the data IDs are 0. N = 128: atype 0x80, btype 0x400,
// N 0x00200000, M 0x08000000; N = 256: N 0x00400000. The same call with
// UE8M0 scales differs in bit 23 only.
TEST(TCGen05, BlockScaledDescriptorMxf4nvf4) {
  EXPECT_EQ(blockScaledFormatCode(BlockScaledKind::MXF4NVF4, "e2m1"), 1u);
  EXPECT_FALSE(blockScaledFormatCode(BlockScaledKind::MXF4NVF4, "e4m3"));
  EXPECT_EQ(blockScaledInstructionDescriptor(1, 1, 128, 128, 0, 0,
                                             /*ue4m3Scales=*/true),
            0x80u + 0x400u + 0x00200000u + 0x08000000u);
  EXPECT_EQ(blockScaledInstructionDescriptor(1, 1, 256, 128, 0, 0,
                                             /*ue4m3Scales=*/true),
            0x80u + 0x400u + 0x00400000u + 0x08000000u);
  EXPECT_EQ(blockScaledInstructionDescriptor(1, 1, 64, 128, 0, 0, true) ^
                blockScaledInstructionDescriptor(1, 1, 64, 128, 0, 0, false),
            0x00800000u);
}

// Scale factors in tensor memory ("Layout of the Scale Factor A/B Matrix
// for scale_vec::1X/2X"): row r at lane r % 32 (duplicated to all four
// lane quarters), column r / 32 of the instruction's scale address, the
// byte (1X) or halfword (2X) the data ID names. txl keeps K groups g..g+3
// (g % 4 == 0) in one column's four bytes, the next four groups rows / 32
// columns on.
TEST(TCGen05, ScaleFactorColumns) {
  for (int64_t r = 0; r < 128; ++r)
    EXPECT_EQ(scaleFactorColumn(0, r, 128), r / 32);
  EXPECT_EQ(scaleFactorColumn(3, 127, 128), 3);
  EXPECT_EQ(scaleFactorColumn(4, 0, 128), 4);
  EXPECT_EQ(scaleFactorColumn(5, 200, 256), 8 + 6);
}

// tcgen05.cp.32x128b.warpx4 copies 32 rows of 16 bytes: row l to lane l
// (of every quarter), its bytes 4j .. 4j + 3 to column j of the
// destination. So (r, g) of a 128-row tile sits at row r % 32 of the
// 512-byte chunk of its column group, 4 bytes per column, byte g % 4.
TEST(TCGen05, ScaleFactorSharedOffsets) {
  EXPECT_EQ(scaleFactorSharedOffset(0, 0, 128), 0);
  EXPECT_EQ(scaleFactorSharedOffset(0, 3, 128), 3);
  EXPECT_EQ(scaleFactorSharedOffset(1, 0, 128), 16);
  EXPECT_EQ(scaleFactorSharedOffset(33, 2, 128), 16 + 4 + 2);
  EXPECT_EQ(scaleFactorSharedOffset(127, 1, 128), 31 * 16 + 12 + 1);
  // Groups 4-7 are the next chunk (columns 4-7).
  EXPECT_EQ(scaleFactorSharedOffset(0, 4, 128), 512);
  // 256 rows: rows 128-255 are the second chunk of a column group.
  EXPECT_EQ(scaleFactorSharedOffset(128, 0, 256), 512);
  EXPECT_EQ(scaleFactorSharedOffset(0, 4, 256), 1024);
  // Every (row, group) has a byte of its own and the tile has no holes.
  for (int64_t rows : {128, 256})
    for (int64_t groups : {4, 8}) {
      std::set<int64_t> seen;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t g = 0; g < groups; ++g)
          seen.insert(scaleFactorSharedOffset(r, g, rows));
      EXPECT_EQ(int64_t(seen.size()), rows * groups);
      EXPECT_EQ(*seen.rbegin(), rows * groups - 1);
    }
}
