# owned by the Layout component
txl_unit_test(layout-tests
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/LinearLayoutTest.cpp
  LIBS TXLLayout)
