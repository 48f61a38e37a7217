# `cmake --install build [--prefix P]`: the plugin, the headers and the CMake
# package that a user project finds with find_package(ADPlugin CONFIG)
# (docs/INSTALL.md). The .deb (cmake/DebPackage.cmake) installs the same files
# under /usr.
include(CMakePackageConfigHelpers)

# One layout under every prefix, not GNUInstallDirs' multiarch libdir (which
# changes with the prefix): the .deb and a tarball install then agree, and
# ADPluginConfig.cmake finds the rest relative to its own directory, so the
# installed tree may be moved anywhere. The plugin gets a directory of its own:
# it is loaded by clang, never linked, so it does not belong beside libraries.
set(AD_INSTALL_PLUGIN_DIR lib/ADPlugin)
set(AD_INSTALL_PLUGIN ${AD_INSTALL_PLUGIN_DIR}/ADPlugin.so)
set(AD_INSTALL_INCLUDE_DIR include)
set(AD_INSTALL_CMAKE_DIR lib/cmake/ADPlugin)
set(AD_INSTALL_DOC_DIR share/doc/adplugin)

install(TARGETS ADPlugin LIBRARY DESTINATION ${AD_INSTALL_PLUGIN_DIR})
# All of include/: ad.h, and whatever other languages' declarations sit beside
# it (a Fortran module source, for instance).
install(DIRECTORY include/ DESTINATION ${AD_INSTALL_INCLUDE_DIR})
# The user guide (not docs/internals/, which is about the plugin's code).
file(GLOB ad_user_docs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/docs/*.md)
install(FILES README.md ${ad_user_docs} DESTINATION ${AD_INSTALL_DOC_DIR})

set(ad_package_dir ${CMAKE_CURRENT_BINARY_DIR}/package)
configure_package_config_file(
  cmake/ADPluginConfig.cmake.in ${ad_package_dir}/ADPluginConfig.cmake
  INSTALL_DESTINATION ${AD_INSTALL_CMAKE_DIR}
  PATH_VARS AD_INSTALL_PLUGIN AD_INSTALL_INCLUDE_DIR)
# 0.x: a minor version may change what users write; patch releases may not.
write_basic_package_version_file(
  ${ad_package_dir}/ADPluginConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${ad_package_dir}/ADPluginConfig.cmake
              ${ad_package_dir}/ADPluginConfigVersion.cmake
              cmake/ADPluginToolchain.cmake
        DESTINATION ${AD_INSTALL_CMAKE_DIR})
