# mmbench_without_sanitizers(): drops the MMBENCH_SANITIZE flags from the
# calling directory and those below it.
#
# A sanitizer runtime must be the first library of a process: a preloaded
# library built with one would stop every uninstrumented program it is
# preloaded into (and a preload in front of an instrumented program stops
# that one). So libmmbench-lb.so and the plain ScaLAPACK program that tests
# it are always built without sanitizers.
function(mmbench_without_sanitizers)
  foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
    get_directory_property(opts ${prop})
    list(FILTER opts EXCLUDE REGEX "^-fsanitize=|^-fno-omit-frame-pointer$")
    set_directory_properties(PROPERTIES ${prop} "${opts}")
  endforeach()
endfunction()
