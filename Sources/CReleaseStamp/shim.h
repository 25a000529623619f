#ifndef RELEASE_CRELEASESTAMP_SHIM_H
#define RELEASE_CRELEASESTAMP_SHIM_H

/// What scripts/package.sh stamps into the binary it packages, as a C string literal passed to the compiler
/// (`-Xswiftc -Xcc -Xswiftc -DRELEASE_REPOSITORY="OWNER/NAME"`, scripts/build-static.sh): Swift has no way to take a
/// string from the command line, a C macro does. A build from source has none: the empty string.
#ifndef RELEASE_REPOSITORY
#define RELEASE_REPOSITORY ""
#endif

/// The GitHub repository (OWNER/NAME) the packaged binary is published in, or "".
static inline const char *release_stamped_repository(void) {
    return RELEASE_REPOSITORY;
}

#endif
