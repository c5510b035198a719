// The module is its header's one inline function; SwiftPM wants a source file for a C target.
#include "trellis_prefetch.h"
