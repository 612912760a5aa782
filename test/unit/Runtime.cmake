# Runtime unit tests: SHA-256, cache, metadata, options, C API (with a fake
# pipeline, so they build without the compiler).
txl_unit_test(runtime-tests
  SOURCES
    RuntimeSha256Test.cpp
    RuntimeCacheTest.cpp
    RuntimeMetadataTest.cpp
    RuntimeCApiTest.cpp
    RuntimeDriverLayoutTest.cpp
    RuntimeCppWrapperTest.cpp
    FakePipeline.cpp
    ${PROJECT_SOURCE_DIR}/lib/Runtime/CApi.cpp
  LIBS TXLRuntime)

# Check the hand-declared driver structs against cuda.h where it exists.
find_path(TXL_CUDA_H_DIR cuda.h
  PATHS $ENV{CUDA_HOME}/include /usr/local/cuda/include NO_DEFAULT_PATH)
if(TXL_CUDA_H_DIR)
  set_source_files_properties(RuntimeDriverLayoutTest.cpp PROPERTIES
    COMPILE_DEFINITIONS TXL_HAVE_CUDA_H
    INCLUDE_DIRECTORIES ${TXL_CUDA_H_DIR})
endif()

# libtxl_fake.so: the real C API over the fake pipeline, for the Python
# tests (and a GPU smoke test of the launcher) when the compiler is absent.
txl_c_api_library(txl_fake FakePipeline.cpp)
target_link_libraries(txl_fake PRIVATE TXLRuntime)
# Building the unit tests also builds the library the Python tests load.
add_dependencies(runtime-tests txl_fake)
