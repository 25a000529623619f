internal import CCurl

/// Process-wide libcurl initialisation and version information.
///
/// `curl_global_init` is not thread-safe, so it runs exactly once, lazily, before the first handle.
/// See https://curl.se/libcurl/c/curl_global_init.html.
package enum CurlRuntime {
    private static let initialised: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    /// Makes sure `curl_global_init` ran; returns whether it succeeded.
    @discardableResult
    package static func ensureInitialised() -> Bool { initialised }

    /// The linked libcurl's version string, for example `libcurl/7.88.1 OpenSSL/3.0.11`.
    package static var version: String {
        String(cString: curl_version())
    }
}
