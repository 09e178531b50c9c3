// `mmbench list`: every algorithm with what it needs and how it lays data out.
#pragma once

namespace mmbench::cli {
void list_command();
}
