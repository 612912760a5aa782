# The tcgen05 encodings txl computes (include/txl/Dialect/TXLGPU/IR/TCGen05.h),
# checked against values worked out by hand from the PTX ISA's tables.
txl_unit_test(tcgen05-tests
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/TCGen05Test.cpp
  LIBS LLVMSupport)
