#ifndef RELEASE_CARCHIVE_SHIM_H
#define RELEASE_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

#endif
