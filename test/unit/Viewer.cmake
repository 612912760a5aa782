# owned by the Viewer component
txl_unit_test(viewer-tests
  SOURCES SourceMapTest.cpp
  LIBS TXLViewer)
