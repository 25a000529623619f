#ifndef RELEASE_CCURL_SHIM_H
#define RELEASE_CCURL_SHIM_H

#include <curl/curl.h>

/*
 * curl_easy_setopt and curl_easy_getinfo are variadic macros-over-functions that Swift cannot call.
 * These typed, non-variadic wrappers give each argument type its own entry point.
 * See https://curl.se/libcurl/c/curl_easy_setopt.html and curl_easy_getinfo.html.
 */

static inline CURLcode release_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode release_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode release_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode release_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode release_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*release_curl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*release_curl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                               curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode release_curl_setopt_data_callback(CURL *handle, CURLoption option,
                                                         release_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode release_curl_setopt_xferinfo_callback(CURL *handle,
                                                             release_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode release_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode release_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode release_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode release_curl_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
