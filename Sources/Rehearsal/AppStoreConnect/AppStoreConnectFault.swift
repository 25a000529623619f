/// A failure the local App Store Connect server injects, to prove a client survives it or reports it clearly.
///
/// Each fault fires on its `occurrence`-th matching request (1 = the first) for `times` matching requests in a
/// row (``FaultSchedule``). Build them with the static functions:
///
/// ```swift
/// server.addFault(.partStatus(500, times: 2))                          // two part uploads answer 500
/// server.addFault(.tooManyRequests(operationID: "buildUploads_getInstance", retryAfter: 1))
/// server.addFault(.processingFailure([.init(code: "ITMS-90062", description: "…")]))
/// ```
package struct AppStoreConnectFault: Sendable, Equatable {
    /// Which requests the fault applies to.
    package enum Target: Sendable, Equatable {
        /// API requests of one operation (its `operationId`, e.g. `buildUploads_createInstance`); nil = any.
        case operation(String?)
        /// PUTs to upload URLs; `part` nil = any part.
        case uploadPart(part: Int?)
        /// Build uploads finishing processing.
        case processing
    }

    /// What happens instead of the normal answer.
    package enum Action: Sendable, Equatable {
        /// The status with an `ErrorResponse` body (on upload URLs: a short text body), after reading the body.
        case status(Int)
        /// 429 with `Retry-After: seconds` and Apple's rate-limit error.
        case tooManyRequests(retryAfter: Int)
        /// 401 with Apple's `NOT_AUTHORIZED` error, whatever the token.
        case unauthorized
        /// Reads `afterBytes` of the body, then resets the connection (RST); the part is not stored.
        case reset(afterBytes: Int64)
        /// Processing ends in `FAILED` with these errors instead of `COMPLETE`.
        case failProcessing([AppStoreConnectStateDetail])
    }

    package var target: Target
    package var action: Action
    package var occurrence: Int
    package var times: Int

    package init(target: Target, action: Action, occurrence: Int = 1, times: Int = 1) {
        self.target = target
        self.action = action
        self.occurrence = max(1, occurrence)
        self.times = max(1, times)
    }

    /// Part uploads answer `status` (500 by default) after reading their body, which is not stored.
    package static func partStatus(_ status: Int = 500, part: Int? = nil, occurrence: Int = 1, times: Int = 1) -> Self {
        Self(target: .uploadPart(part: part), action: .status(status), occurrence: occurrence, times: times)
    }

    /// Part uploads are cut off (RST) after `afterBytes` bytes of their body.
    package static func partReset(afterBytes: Int64, part: Int? = nil, occurrence: Int = 1, times: Int = 1) -> Self {
        Self(target: .uploadPart(part: part), action: .reset(afterBytes: afterBytes), occurrence: occurrence, times: times)
    }

    /// Requests of `operationID` (nil = any operation) answer 429 with `Retry-After`.
    package static func tooManyRequests(operationID: String?, retryAfter: Int = 1, occurrence: Int = 1, times: Int = 1) -> Self {
        Self(target: .operation(operationID), action: .tooManyRequests(retryAfter: retryAfter), occurrence: occurrence, times: times)
    }

    /// Requests of `operationID` (nil = any operation) answer 401, as for a revoked key.
    package static func unauthorized(operationID: String?, occurrence: Int = 1, times: Int = 1) -> Self {
        Self(target: .operation(operationID), action: .unauthorized, occurrence: occurrence, times: times)
    }

    /// Requests of `operationID` (nil = any operation) answer `status` (500 by default).
    package static func status(_ status: Int = 500, operationID: String?, occurrence: Int = 1, times: Int = 1) -> Self {
        Self(target: .operation(operationID), action: .status(status), occurrence: occurrence, times: times)
    }

    /// The next build upload to finish processing fails with `errors` (Apple's codes and words, e.g.
    /// `ITMS-90062`).
    package static func processingFailure(_ errors: [AppStoreConnectStateDetail], occurrence: Int = 1) -> Self {
        Self(target: .processing, action: .failProcessing(errors), occurrence: occurrence, times: 1)
    }

    /// The failure Apple reports for a build whose version is not higher than the one already approved.
    package static let versionNotHigher = AppStoreConnectStateDetail(
        code: "ITMS-90062",
        description:
            "This bundle is invalid. The value for key CFBundleShortVersionString [1.0.0] in the Info.plist file must contain a higher version than that of the previously approved version [1.0.0]."
    )

    func matches(operation: String?, part: Int?, processing: Bool) -> Bool {
        switch target {
        case .operation(let wanted):
            guard let operation else { return false }
            return wanted == nil || wanted == operation
        case .uploadPart(let wanted):
            guard let part else { return false }
            return wanted == nil || wanted == part
        case .processing:
            return processing
        }
    }
}
