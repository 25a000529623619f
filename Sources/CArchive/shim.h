#ifndef RELEASE_CARCHIVE_SHIM_H
#define RELEASE_CARCHIVE_SHIM_H

// macOS ships libarchive (/usr/lib/libarchive.2.dylib; the SDK's usr/lib/libarchive.tbd, universal, is what
// `link "archive"` finds) but no archive.h, and Homebrew's libarchive is keg-only. So on Apple platforms the
// functions ReleaseKit calls are declared here, as libarchive 3's archive.h and archive_entry.h declare them
// (stable since 3.2; macOS 15 ships 3.7), and the binary links only the system library. Elsewhere the real headers
// come from the distribution's package (libarchive-dev). `scripts/check-portability.sh` compiles these declarations
// together with the real headers, so a declaration that drifts from libarchive's is a compile error on Linux too.
// RELEASE_CARCHIVE_DECLARATIONS forces this branch for that check.
#if defined(__APPLE__) || defined(RELEASE_CARCHIVE_DECLARATIONS)

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct archive;
struct archive_entry;

#define ARCHIVE_EOF 1
#define ARCHIVE_OK 0
#define ARCHIVE_RETRY (-10)
#define ARCHIVE_WARN (-20)
#define ARCHIVE_FAILED (-25)
#define ARCHIVE_FATAL (-30)

const char *archive_version_string(void);
int archive_errno(struct archive *);
const char *archive_error_string(struct archive *);

struct archive *archive_read_new(void);
int archive_read_support_format_zip_seekable(struct archive *);
int archive_read_set_options(struct archive *_a, const char *opts);
int archive_read_open_filename(struct archive *, const char *_filename, size_t _block_size);
int archive_read_next_header(struct archive *, struct archive_entry **);
ssize_t archive_read_data(struct archive *, void *, size_t);
int archive_read_free(struct archive *);

mode_t archive_entry_filetype(struct archive_entry *);
mode_t archive_entry_mode(struct archive_entry *);
const char *archive_entry_pathname(struct archive_entry *);
const char *archive_entry_pathname_utf8(struct archive_entry *);
int64_t archive_entry_size(struct archive_entry *);
const char *archive_entry_symlink(struct archive_entry *);
const char *archive_entry_symlink_utf8(struct archive_entry *);

#ifdef __cplusplus
}
#endif

#else

#include <archive.h>
#include <archive_entry.h>

#endif

#endif
