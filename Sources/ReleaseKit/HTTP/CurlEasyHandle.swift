internal import CCurl
import Foundation

/// Owns one libcurl easy handle: created in `init`, freed in `deinit`, every `CURLcode` through ``check(_:)``.
///
/// One handle serves one transfer (then is dropped), so no state leaks between requests. Errors carry curl's
/// own message from `CURLOPT_ERRORBUFFER`, which says more than `curl_easy_strerror` (the host, the errno).
/// See https://curl.se/libcurl/c/curl_easy_init.html and https://curl.se/libcurl/c/CURLOPT_ERRORBUFFER.html.
final class CurlEasyHandle {
    let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// For messages: the method and the URL without credentials.
    private let method: String
    private let redactedURL: String

    init(method: String, redactedURL: String) throws {
        guard CurlRuntime.ensureInitialised(), let handle = curl_easy_init() else {
            throw HTTPError.setup("curl_easy_init failed")
        }
        self.handle = handle
        self.method = method
        self.redactedURL = redactedURL
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try check(release_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// Turns a `CURLcode` into ``HTTPError/transport(method:url:code:message:)`` with curl's message.
    func check(_ code: CURLcode) throws {
        guard code != CURLE_OK else { return }
        var message = String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
        if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
        throw HTTPError.transport(method: method, url: redactedURL, code: Int(code.rawValue), message: message)
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(release_curl_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, offset value: Int64) throws {
        try check(release_curl_setopt_off(handle, option, curl_off_t(value)))
    }

    /// libcurl copies string options (since 7.17.0), so `value` need not outlive the call.
    func set(_ option: CURLoption, _ value: String) throws {
        try value.withCString { try check(release_curl_setopt_string(handle, option, $0)) }
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws {
        try check(release_curl_setopt_pointer(handle, option, value))
    }

    func set(_ option: CURLoption, callback: release_curl_data_callback) throws {
        try check(release_curl_setopt_data_callback(handle, option, callback))
    }

    func setProgress(_ callback: release_curl_xferinfo_callback) throws {
        try check(release_curl_setopt_xferinfo_callback(handle, callback))
    }

    /// Sets the request's header fields. The list must outlive the transfer, so the handle owns it.
    func setHeaders(_ lines: [String]) throws {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let appended = curl_slist_append(list, line) else {
                if let list { curl_slist_free_all(list) }
                throw HTTPError.setup("curl_slist_append failed")
            }
            list = appended
        }
        if let headerList { curl_slist_free_all(headerList) }
        headerList = list
        try check(release_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
    }

    /// Runs the transfer on the calling thread (blocking).
    func perform() throws {
        try check(curl_easy_perform(handle))
    }

    /// `CURLINFO_RESPONSE_CODE`: the last response's status, 0 if none arrived.
    func responseCode() throws -> Int {
        var value = 0
        try check(release_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &value))
        return value
    }

    /// `CURLINFO_SIZE_UPLOAD_T`: request body bytes sent.
    func bytesUploaded() throws -> Int64 {
        var value: curl_off_t = 0
        try check(release_curl_getinfo_off(handle, CURLINFO_SIZE_UPLOAD_T, &value))
        return Int64(value)
    }
}
