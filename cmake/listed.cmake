# Explicit source lists, checked (issue 12: "explicit source lists"). A file is
# added to the build by a reviewed edit of a list, never by a glob; the glob
# here only checks: a matching file in the tree that no list names is a
# configure error rather than a test or source that silently never builds.
#
#   rsv_check_listed(<dir> <what> GLOBS <pattern>... LISTED <file>...)
#
# <pattern>s are relative to <dir>; LISTED holds the names relative to <dir>.
function(rsv_check_listed dir what)
  cmake_parse_arguments(ARG "" "" "GLOBS;LISTED" ${ARGN})
  file(GLOB _found RELATIVE ${dir} ${ARG_GLOBS})
  foreach(_f IN LISTS _found)
    if(NOT _f IN_LIST ARG_LISTED)
      message(FATAL_ERROR "${what}: ${_f} is not listed (add it to the list next to this check)")
    endif()
  endforeach()
endfunction()
