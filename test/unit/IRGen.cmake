# owned by irgen
txl_unit_test(irgen-tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/IRGenTest.cpp
  LIBS TXLIRGen TXLFrontend TXLDialect MLIRIR)
target_compile_definitions(irgen-tests PRIVATE
  TXL_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/examples"
  TXL_BAD_SEMANTIC_DIR="${PROJECT_SOURCE_DIR}/test/bad/semantic")
