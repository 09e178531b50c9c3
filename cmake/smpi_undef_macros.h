/* Forced after SimGrid's smpi_helpers.h in the SMPI build (-include): its
 * function-like macros (exit, malloc, free, getpid, sleep, ...) also rename
 * C++ members such as CLI::App::exit and std::free. mmbench calls none of
 * them where simulation matters (it returns from main; large matrices use
 * SMPI's shared allocation explicitly), so the macros are removed. */
#undef exit
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef getpid
#undef getopt
#undef getopt_long
#undef getopt_long_only
