import Foundation
import ReleaseSupport

/// Sends HTTP requests through libcurl: streaming bodies, progress, timeouts, retries, credential hygiene.
///
/// Each attempt gets its own easy handle and runs `curl_easy_perform` on a dedicated thread, off Swift's
/// cooperative pool, so a 10-minute upload never blocks other tasks. Cancelling the calling task stops the
/// transfer at libcurl's next progress callback and throws `CancellationError`.
package struct HTTPClient: Sendable {
    /// How the client connects, times out, retries and who may receive credentials.
    package struct Configuration: Sendable {
        /// Longest wait for a TCP/TLS connection.
        package var connectTimeout: Duration
        /// A transfer moving fewer than `stallBytesPerSecond` for this long is a stall (`CURLOPT_LOW_SPEED_TIME`,
        /// whole seconds, at least 1).
        package var stallTimeout: Duration
        /// The speed under which a transfer counts as stalled (`CURLOPT_LOW_SPEED_LIMIT`).
        package var stallBytesPerSecond: Int
        /// Longest time for a whole transfer; nil for none (uploads of any size rely on the stall timeout).
        package var totalTimeout: Duration?
        /// A CA bundle (`--cacert`); else `SSL_CERT_FILE` from `environment`; else libcurl's default.
        package var caCertificateFile: String?
        /// Lower-cased host names allowed to receive a request's `authorization`.
        package var credentialHosts: Set<String>
        /// When set, the only hosts requests may go to (a rehearsal: the loopback); others fail before connecting.
        package var allowedHosts: Set<String>?
        /// Retries for requests that do not bring their own policy.
        package var retryPolicy: RetryPolicy
        package var userAgent: String
        /// libcurl's upload buffer (`CURLOPT_UPLOAD_BUFFERSIZE`): bigger means fewer read calls.
        package var uploadBufferSize: Int
        /// Where `SSL_CERT_FILE` and `no_proxy` are read from.
        package var environment: [String: String]
        /// Told about every retry, with a message fit for a log (no credentials).
        package var onRetry: (@Sendable (String) -> Void)?
        /// Whether a host name that did not resolve is retried. Preflight and dry runs say no: they check, and an
        /// unknown host does not become known in 12 seconds.
        package var retriesNameResolution = true

        package init(
            connectTimeout: Duration = .seconds(30),
            stallTimeout: Duration = .seconds(60),
            stallBytesPerSecond: Int = 1,
            totalTimeout: Duration? = nil,
            caCertificateFile: String? = nil,
            credentialHosts: Set<String> = [],
            retryPolicy: RetryPolicy = RetryPolicy(),
            userAgent: String = "release/\(ReleaseKitVersion.string)",
            uploadBufferSize: Int = 512 * 1024,
            environment: [String: String] = ProcessInfo.processInfo.environment,
            onRetry: (@Sendable (String) -> Void)? = nil
        ) {
            self.connectTimeout = connectTimeout
            self.stallTimeout = stallTimeout
            self.stallBytesPerSecond = stallBytesPerSecond
            self.totalTimeout = totalTimeout
            self.caCertificateFile = caCertificateFile
            self.credentialHosts = Set(credentialHosts.map { $0.lowercased() })
            self.allowedHosts = nil
            self.retryPolicy = retryPolicy
            self.userAgent = userAgent
            self.uploadBufferSize = uploadBufferSize
            self.environment = environment
            self.onRetry = onRetry
        }
    }

    package var configuration: Configuration

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Sends `request`, retrying per its policy (or the client's) on connection errors, 5xx, 429 and
    /// secondary-rate-limit 403s. Returns the last response whatever its status; throws the last transport
    /// error when every attempt failed to get one.
    /// - Parameter progress: called with (bytes of body sent, total) as the upload moves.
    package func send(
        _ request: HTTPRequest,
        progress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) async throws -> HTTPResponse {
        let policy = request.retryPolicy ?? configuration.retryPolicy
        var attempt = 1
        while true {
            let delay: Duration
            let reason: String
            do {
                let response = try await perform(request, progress: progress)
                guard attempt < policy.maxAttempts, RetryPolicy.isRetriable(response) else { return response }
                delay = policy.delay(after: response, attempt: attempt)
                reason = "returned HTTP \(response.status)"
            } catch let error as HTTPError
                where error.isRetriable && attempt < policy.maxAttempts
                && (configuration.retriesNameResolution || !error.isNameResolutionFailure)
            {
                delay = policy.delay(after: nil, attempt: attempt)
                reason = "failed: \(error.reason)"
            }
            configuration.onRetry?(
                "\(request.method) \(request.redactedURL) \(reason); retrying in \(DurationFormat.string(delay)) (attempt \(attempt + 1) of \(policy.maxAttempts))"
            )
            try await policy.sleep(delay)
            attempt += 1
        }
    }

    /// Sends `request` once: no retries.
    package func perform(
        _ request: HTTPRequest,
        progress: (@Sendable (Int64, Int64) -> Void)? = nil
    ) async throws -> HTTPResponse {
        guard let components = HTTPRequest.httpComponents(request.url) else {
            throw HTTPError.invalidURL(request.redactedURL)
        }
        if let allowed = configuration.allowedHosts, let host = components.hostWithoutIDNA?.lowercased(), !allowed.contains(host) {
            throw HTTPError.hostNotAllowed(host: host, url: request.redactedURL)
        }
        try Task.checkCancellation()
        let transfer = CurlTransfer(request: request, configuration: configuration, progress: progress)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let thread = Thread {
                    continuation.resume(with: Result { try transfer.perform() })
                }
                thread.name = "release.http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
    }

}
