# ADPluginToolchain.cmake: what find_package(ADPlugin) checks and adjusts in
# the project's toolchain, for the languages enabled so far (enable them
# before find_package). Included by ADPluginConfig.cmake, in the caller's
# scope: every variable here is _adplugin_-prefixed and unset at the end.

# The plugin is built against LLVM ${ADPlugin_LLVM_VERSION_MAJOR} and loads
# only into that version's clang (C, C++, CUDA) or flang (Fortran). Any other
# compiler is handed -fpass-plugin= all the same (ADPlugin::ad), so its
# compiles fail rather than leave __ad_* calls undifferentiated; the warning
# says why before the build does. A warning, not an error: a project may
# compile one language with gcc and differentiate only in another.
get_property(_adplugin_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
foreach(_adplugin_lang C CXX CUDA Fortran)
  if(NOT _adplugin_lang IN_LIST _adplugin_languages)
    continue()
  endif()
  if(_adplugin_lang STREQUAL "Fortran")
    set(_adplugin_want_id LLVMFlang)
    set(_adplugin_want "flang-${ADPlugin_LLVM_VERSION_MAJOR}")
  elseif(_adplugin_lang STREQUAL "C")
    set(_adplugin_want_id Clang)
    set(_adplugin_want "clang-${ADPlugin_LLVM_VERSION_MAJOR}")
  else()
    set(_adplugin_want_id Clang)
    set(_adplugin_want "clang++-${ADPlugin_LLVM_VERSION_MAJOR}")
  endif()
  set(_adplugin_id "${CMAKE_${_adplugin_lang}_COMPILER_ID}")
  set(_adplugin_version "${CMAKE_${_adplugin_lang}_COMPILER_VERSION}")
  string(REGEX MATCH "^[0-9]+" _adplugin_major "${_adplugin_version}")
  if(NOT _adplugin_id STREQUAL _adplugin_want_id
     OR NOT _adplugin_major STREQUAL ADPlugin_LLVM_VERSION_MAJOR)
    message(WARNING
      "ADPlugin: the ${_adplugin_lang} compiler is ${_adplugin_id} "
      "${_adplugin_version} (${CMAKE_${_adplugin_lang}_COMPILER}), but the "
      "plugin loads only into ${_adplugin_want}. ${_adplugin_lang} sources of "
      "targets that link ADPlugin::ad will fail to compile (their compiler is "
      "given -fpass-plugin=${ADPlugin_PLUGIN}). Configure a fresh build "
      "directory with -DCMAKE_${_adplugin_lang}_COMPILER=${_adplugin_want}.")
  endif()
endforeach()

# ccache hashes a compile's command line, not the files its flags name: the
# plugin's path stays the same when the plugin is upgraded, so ccache would
# hand back objects differentiated by the old plugin. Its extra_files_to_hash
# setting (CCACHE_EXTRAFILES) puts the plugin's contents into every hash; when
# the project's launcher is ccache, the launcher sets it. The setting that
# ccache already had (from ccache.conf or the environment) is kept.
foreach(_adplugin_lang C CXX CUDA Fortran)
  set(_adplugin_launcher "${CMAKE_${_adplugin_lang}_COMPILER_LAUNCHER}")
  if(NOT _adplugin_launcher)
    continue()
  endif()
  list(GET _adplugin_launcher 0 _adplugin_ccache)
  get_filename_component(_adplugin_name "${_adplugin_ccache}" NAME)
  if(NOT _adplugin_name MATCHES "^ccache(\\.exe)?$"
     OR _adplugin_launcher MATCHES "(^|;)CCACHE_EXTRAFILES=")
    continue()
  endif()
  execute_process(COMMAND ${_adplugin_ccache} --get-config extra_files_to_hash
                  OUTPUT_VARIABLE _adplugin_extra
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_adplugin_extra)
    set(_adplugin_extra "${_adplugin_extra}:${ADPlugin_PLUGIN}")
  else()
    set(_adplugin_extra "${ADPlugin_PLUGIN}")
  endif()
  set(CMAKE_${_adplugin_lang}_COMPILER_LAUNCHER
      "${CMAKE_COMMAND};-E;env;CCACHE_EXTRAFILES=${_adplugin_extra};${_adplugin_launcher}")
endforeach()

foreach(_adplugin_var languages lang want_id want id version major launcher
                      ccache name extra)
  unset(_adplugin_${_adplugin_var})
endforeach()
unset(_adplugin_var)
