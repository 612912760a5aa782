# Back end: LLVM+NVVM dialects -> LLVM IR -> PTX -> cubin.
txl_unit_test(target-tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/TargetTest.cpp
          ${CMAKE_CURRENT_LIST_DIR}/PtxasReportTest.cpp
  LIBS TXLTarget MLIRParser MLIRLLVMDialect MLIRNVVMDialect LLVMCore
       LLVMSupport)
