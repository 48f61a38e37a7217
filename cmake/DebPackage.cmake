# `cpack -G DEB` in the build directory: a Debian package of what
# cmake/Install.cmake installs, under /usr (docs/INSTALL.md).
set(CPACK_PACKAGE_NAME adplugin)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "ADPlugin")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "automatic differentiation as an LLVM ${LLVM_VERSION_MAJOR} pass plugin")
set(CPACK_PACKAGE_DESCRIPTION
    "ADPlugin.so differentiates the __ad_autodiff and __ad_fwddiff calls of C,
C++, CUDA, Fortran and Rust programs at compile time (clang -fpass-plugin,
flang -fpass-plugin) or at link time. The package holds the plugin, ad.h and
a CMake package (find_package(ADPlugin), target ADPlugin::ad).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Debian ships binaries stripped; the plugin keeps its dynamic symbols (the
# entry point clang looks up).
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR "")

set(AD_PACKAGE_MAINTAINER "ADPlugin developers <adplugin@example.org>"
    CACHE STRING "The Maintainer field of the .deb")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${AD_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The plugin links no LLVM library: it resolves LLVM's symbols against the
# process that loads it, clang-22 or opt-22, whose libLLVM comes from
# libllvm22; a plugin for another LLVM major would not load. Its own NEEDED
# libraries (libc, libstdc++, libgcc_s) are found by dpkg-shlibdeps where
# dpkg-dev is installed.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "clang-${LLVM_VERSION_MAJOR}, libllvm${LLVM_VERSION_MAJOR}")
find_program(AD_DPKG_SHLIBDEPS dpkg-shlibdeps)
mark_as_advanced(AD_DPKG_SHLIBDEPS)
if(AD_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libc6, libstdc++6, libgcc-s1")
endif()
# opt-22 runs the pass on IR; lld-22 is the linker of the link-time route
# (Rust, LTO); flang-22 compiles Fortran.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "llvm-${LLVM_VERSION_MAJOR}, lld-${LLVM_VERSION_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "flang-${LLVM_VERSION_MAJOR}")

include(CPack)
