txl_unit_test(frontend-tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/FrontendTest.cpp
  LIBS TXLFrontend)
# The bad-input corpus lives next to the tests; the tests read it from here.
target_compile_definitions(frontend-tests PRIVATE
  TXL_BAD_SYNTAX_DIR="${PROJECT_SOURCE_DIR}/test/bad/syntax"
  TXL_GOOD_DIR="${PROJECT_SOURCE_DIR}/test/good")
