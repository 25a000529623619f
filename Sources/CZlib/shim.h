#ifndef RELEASE_CZLIB_SHIM_H
#define RELEASE_CZLIB_SHIM_H

#include <zlib.h>

/// `deflateInit2` is a macro (it passes the library version and struct size): wrap it for Swift.
/// Raw deflate (negative window bits: no zlib header or trailer, as zip stores it), a 32 KiB window and
/// memLevel 8, the parameters Info-ZIP's `zip` uses.
static inline int czlib_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

#endif
