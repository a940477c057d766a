// Header-only module (see include/CPrefetch.h); SwiftPM needs one source file per C target.
#include "CPrefetch.h"
