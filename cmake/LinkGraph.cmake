# LinkGraph.cmake: write the project's link graph as JSON, for
# scripts/check-layering.py (test/Tools/layering.test).
#
#   include(LinkGraph)
#   ...                                   # every add_subdirectory()
#   tfc_write_link_graph(${CMAKE_BINARY_DIR}/link-graph.json)
#
# Call it once, at the very end of the top-level CMakeLists.txt: it sees only
# the targets defined before the call. The file is written at generate time
# (file(GENERATE)) and looks like
#
#   {
#     "version": 1,
#     "source_dir": "/abs/src",
#     "binary_dir": "/abs/build",
#     "targets": {
#       "tfc_runtime": {
#         "type": "STATIC_LIBRARY",       # get_target_property(TYPE)
#         "imported": false,
#         "source_dir": "runtime",        # relative to the project root
#         "sources": ["runtime/lib/Allocator.cpp", ...],
#         "link_libraries": ["Eigen3::Eigen", "tfc_openmp", ...],
#         "interface_link_libraries": [...]
#       },
#       "MLIR": {"type": "SHARED_LIBRARY", "imported": true, ...},
#       ...
#     }
#   }
#
# "targets" holds every target of the project (all directories, found from
# CMAKE_SOURCE_DIR through the SUBDIRECTORIES and BUILDSYSTEM_TARGETS
# directory properties) and every imported target they link (directly or
# through other imported targets), marked "imported": true. The link lists
# are the LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES properties with
# generator expressions reduced (see _tfc_lg_strip_genex), ALIAS targets
# replaced by the target they name, duplicates removed. An item that is not a
# target (a file path, -lfoo, dl) stays as the string it was. Sources are
# relative to the project root when inside it, absolute otherwise (generated
# files); generator expressions in SOURCES are reduced the same way.

# Reduces the generator expressions in one list item, innermost first.
# Conditions ($<CONFIG:..>, $<BOOL:..>, $<NOT:..>, ...) count as "may be true",
# so a conditional item is kept: the layering check wants every edge that can
# exist in some configuration. $<LINK_ONLY:x>, $<BUILD_INTERFACE:x>,
# $<BUILD_LOCAL_INTERFACE:x>, $<TARGET_NAME:x>, $<TARGET_FILE:x>,
# $<TARGET_LINKER_FILE:x>, $<COMPILE_ONLY:x> give x; $<LINK_LIBRARY:f,x> and
# $<LINK_GROUP:f,x> give x; $<INSTALL_INTERFACE:x>, $<TARGET_OBJECTS:x> and
# other value-less or unknown expressions give nothing.
function(_tfc_lg_strip_genex item out_var)
  set(s "${item}")
  # A bound on the loop in case of malformed input.
  foreach(_unused RANGE 200)
    string(REGEX MATCH "\\$<([^$<>]*)>" m "${s}")
    if(m STREQUAL "")
      break()
    endif()
    set(body "${CMAKE_MATCH_1}")
    string(FIND "${body}" ":" colon)
    if(colon EQUAL -1)
      set(name "${body}")
      set(arg "")
    else()
      string(SUBSTRING "${body}" 0 ${colon} name)
      math(EXPR after "${colon} + 1")
      string(SUBSTRING "${body}" ${after} -1 arg)
    endif()
    if(name MATCHES "^(LINK_ONLY|BUILD_INTERFACE|BUILD_LOCAL_INTERFACE|TARGET_NAME|TARGET_FILE|TARGET_LINKER_FILE|COMPILE_ONLY|0|1)$")
      # $<0:x> can only come from a condition we could not decide (all of
      # ours read as 1), so keep x as well.
      set(value "${arg}")
    elseif(name MATCHES "^(LINK_LIBRARY|LINK_GROUP)$")
      string(FIND "${arg}" "," comma)
      if(comma EQUAL -1)
        set(value "")
      else()
        math(EXPR after "${comma} + 1")
        string(SUBSTRING "${arg}" ${after} -1 value)
      endif()
    elseif(name MATCHES "^(CONFIG|BOOL|NOT|AND|OR|EQUAL|STREQUAL|VERSION_[A-Z_]+|IN_LIST|TARGET_EXISTS|PLATFORM_ID|COMPILE_LANGUAGE|COMPILE_LANG_AND_ID|LINK_LANGUAGE|LINK_LANG_AND_ID|DEVICE_LINK|HOST_LINK|(C|CXX|CUDA|HIP|OBJC|OBJCXX|Fortran|ISPC|ASM)_COMPILER_(ID|VERSION)|TARGET_POLICY|TARGET_PROPERTY)$")
      set(value "1")
    else()
      set(value "")
    endif()
    string(REPLACE "${m}" "${value}" s "${s}")
  endforeach()
  set(${out_var} "${s}" PARENT_SCOPE)
endfunction()

# Escapes a string for a JSON string literal, and keeps file(GENERATE) from
# reading a left-over "$<" as a generator expression.
function(_tfc_lg_json_string value out_var)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "$<" "$<1:$><" value "${value}")
  set(${out_var} "\"${value}\"" PARENT_SCOPE)
endfunction()

# A JSON array of strings from a CMake list.
function(_tfc_lg_json_array out_var)
  set(joined "")
  set(sep "")
  foreach(v IN LISTS ARGN)
    _tfc_lg_json_string("${v}" q)
    string(APPEND joined "${sep}${q}")
    set(sep ", ")
  endforeach()
  set(${out_var} "[${joined}]" PARENT_SCOPE)
endfunction()

# The link items of <target>'s property <prop>, reduced and resolved.
function(_tfc_lg_link_items target prop out_var)
  get_target_property(raw ${target} ${prop})
  set(items "")
  if(raw)
    foreach(entry IN LISTS raw)
      # target_link_libraries() called from another directory than the
      # target's wraps its items in ::@(directory-id) ... ::@ markers.
      if(entry MATCHES "^::@")
        continue()
      endif()
      _tfc_lg_strip_genex("${entry}" reduced)
      # An expression may have expanded to a list (e.g. a LINK_GROUP).
      foreach(item IN LISTS reduced)
        string(STRIP "${item}" item)
        if(item STREQUAL "" OR item MATCHES "^::@")
          continue()
        endif()
        if(TARGET "${item}")
          get_target_property(aliased "${item}" ALIASED_TARGET)
          if(aliased)
            set(item "${aliased}")
          endif()
        endif()
        list(APPEND items "${item}")
      endforeach()
    endforeach()
  endif()
  list(REMOVE_DUPLICATES items)
  set(${out_var} "${items}" PARENT_SCOPE)
endfunction()

# Project-relative (when inside the source tree) path of <path>, absolute
# when <path> is relative to <base_dir>.
function(_tfc_lg_rel_path path base_dir out_var)
  if(NOT IS_ABSOLUTE "${path}")
    set(path "${base_dir}/${path}")
  endif()
  cmake_path(NORMAL_PATH path)
  cmake_path(IS_PREFIX CMAKE_SOURCE_DIR "${path}" NORMALIZE inside)
  if(inside)
    file(RELATIVE_PATH path "${CMAKE_SOURCE_DIR}" "${path}")
    if(path STREQUAL "")
      set(path ".")
    endif()
  endif()
  set(${out_var} "${path}" PARENT_SCOPE)
endfunction()

# Appends to <out_var> the targets defined in <dir> and its subdirectories.
function(_tfc_lg_collect_targets dir out_var)
  set(found "${${out_var}}")
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  list(APPEND found ${targets})
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _tfc_lg_collect_targets("${sub}" found)
  endforeach()
  set(${out_var} "${found}" PARENT_SCOPE)
endfunction()

function(tfc_write_link_graph output)
  set(project_targets "")
  _tfc_lg_collect_targets("${CMAKE_SOURCE_DIR}" project_targets)
  list(REMOVE_DUPLICATES project_targets)
  list(SORT project_targets)

  # Work list: the project's targets, then every imported target reached.
  set(pending ${project_targets})
  set(done "")
  set(body "")
  set(sep "")
  while(pending)
    list(POP_FRONT pending t)
    if(t IN_LIST done)
      continue()
    endif()
    list(APPEND done "${t}")

    get_target_property(type ${t} TYPE)
    get_target_property(imported ${t} IMPORTED)
    _tfc_lg_link_items(${t} LINK_LIBRARIES links)
    _tfc_lg_link_items(${t} INTERFACE_LINK_LIBRARIES iface)
    foreach(dep IN LISTS links iface)
      if(TARGET "${dep}" AND NOT dep IN_LIST done AND NOT dep IN_LIST pending)
        list(APPEND pending "${dep}")
      endif()
    endforeach()

    set(src_dir "")
    set(sources "")
    if(NOT imported)
      get_target_property(dir ${t} SOURCE_DIR)
      _tfc_lg_rel_path("${dir}" "${CMAKE_SOURCE_DIR}" src_dir)
      get_target_property(raw_sources ${t} SOURCES)
      if(raw_sources)
        foreach(entry IN LISTS raw_sources)
          _tfc_lg_strip_genex("${entry}" reduced)
          foreach(src IN LISTS reduced)
            if(NOT src STREQUAL "")
              _tfc_lg_rel_path("${src}" "${dir}" rel)
              list(APPEND sources "${rel}")
            endif()
          endforeach()
        endforeach()
        list(REMOVE_DUPLICATES sources)
      endif()
    endif()

    if(imported)
      set(imported_json "true")
    else()
      set(imported_json "false")
    endif()
    _tfc_lg_json_string("${t}" name_json)
    _tfc_lg_json_string("${type}" type_json)
    _tfc_lg_json_string("${src_dir}" dir_json)
    _tfc_lg_json_array(sources_json ${sources})
    _tfc_lg_json_array(links_json ${links})
    _tfc_lg_json_array(iface_json ${iface})
    string(APPEND body "${sep}"
      "    ${name_json}: {\n"
      "      \"type\": ${type_json},\n"
      "      \"imported\": ${imported_json},\n"
      "      \"source_dir\": ${dir_json},\n"
      "      \"sources\": ${sources_json},\n"
      "      \"link_libraries\": ${links_json},\n"
      "      \"interface_link_libraries\": ${iface_json}\n"
      "    }")
    set(sep ",\n")
  endwhile()

  _tfc_lg_json_string("${CMAKE_SOURCE_DIR}" src_json)
  _tfc_lg_json_string("${CMAKE_BINARY_DIR}" bin_json)
  string(CONCAT content
    "{\n"
    "  \"version\": 1,\n"
    "  \"source_dir\": ${src_json},\n"
    "  \"binary_dir\": ${bin_json},\n"
    "  \"targets\": {\n"
    "${body}\n"
    "  }\n"
    "}\n")
  file(GENERATE OUTPUT "${output}" CONTENT "${content}")
endfunction()
