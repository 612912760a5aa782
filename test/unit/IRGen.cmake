# owned by irgen
# Signature.cpp is compiled in as well (it needs only LLVM Support): the
# corpus headers and SignatureTest.cpp use the compiler's own parser for
# tensordesc<...> entries.
txl_unit_test(irgen-tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/IRGenTest.cpp
          ${CMAKE_CURRENT_LIST_DIR}/SignatureTest.cpp
          ${PROJECT_SOURCE_DIR}/lib/Pipeline/Signature.cpp
  LIBS TXLIRGen TXLFrontend TXLDialect MLIRIR)
target_compile_definitions(irgen-tests PRIVATE
  TXL_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/examples"
  TXL_BAD_SEMANTIC_DIR="${PROJECT_SOURCE_DIR}/test/bad/semantic")
