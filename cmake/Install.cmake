# What `cmake --install` and a pip wheel (scikit-build-core) install.
#
# cmake --install build --prefix P:
#   P/lib/libtxl.so, P/lib/libtxlrt.so   the C API with and without the compiler
#   P/bin/txlc, P/bin/txl-opt
#   P/include/txl/{txl.h,txl.hpp,Version.h}
#   P/lib/cmake/txl/txlConfig.cmake      find_package(txl CONFIG) -> txl::txl,
#                                        txl::txlrt (imported, with includes)
# A wheel (SKBUILD) puts the libraries in txl/_lib and the tools in txl/_bin
# inside the Python package instead; python/txl finds them there.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

if(SKBUILD)
  set(_lib_dir txl/_lib)
  set(_bin_dir txl/_bin)
else()
  set(_lib_dir ${CMAKE_INSTALL_LIBDIR})
  set(_bin_dir ${CMAKE_INSTALL_BINDIR})
endif()

foreach(_lib txl txlrt)
  target_include_directories(${_lib} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
install(TARGETS txl txlrt EXPORT txlTargets
        LIBRARY DESTINATION ${_lib_dir})
install(TARGETS txlc txl-opt RUNTIME DESTINATION ${_bin_dir})

if(NOT SKBUILD)
  install(FILES ${PROJECT_SOURCE_DIR}/include/txl/txl.h
                ${PROJECT_SOURCE_DIR}/include/txl/txl.hpp
                ${PROJECT_BINARY_DIR}/include/txl/Version.h
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/txl)
  set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/txl)
  install(EXPORT txlTargets NAMESPACE txl:: DESTINATION ${_cmake_dir})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/txlConfig.cmake.in
    ${PROJECT_BINARY_DIR}/txlConfig.cmake INSTALL_DESTINATION ${_cmake_dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/txlConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/txlConfig.cmake
                ${PROJECT_BINARY_DIR}/txlConfigVersion.cmake
          DESTINATION ${_cmake_dir})
endif()
