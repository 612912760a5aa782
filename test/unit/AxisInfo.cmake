# owned by the AxisInfo component
txl_unit_test(axisinfo-tests
  SOURCES AxisInfoTest.cpp AxisInfoFuzzTest.cpp
  LIBS TXLAnalysis TXLDialect MLIRParser MLIRFuncDialect MLIRSCFDialect
       MLIRArithDialect)
