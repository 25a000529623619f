import Foundation

/// What a verified webhook delivery asks for: which release to resume (app, version, build, the `release/X.Y.Z` ref
/// the release model keeps its marketing version on), or that there is nothing to resume.
///
/// The body names only the resource that changed (a build upload, an App Store version) and its states. With an API
/// key, ``resolve(_:client:)`` reads that resource for its version and build; without one, the answer is the event
/// alone and the advice to resume every open release (which converges: a release with nothing new to do does
/// nothing).
package struct WebhookResume: Sendable, Equatable {
    package var delivery: WebhookDelivery
    package var appID: String?
    package var version: String?
    package var build: String?
    package var platform: String?
    /// Whether a waiting release should run again for this event.
    package var resumes: Bool
    /// Why (or why not), one sentence.
    package var reason: String
    /// Why the resource could not be read for its version, when a key was there to read it.
    package var lookupProblem: String?

    /// The events a release waits on, and the new states that leave it still waiting (resuming then would only
    /// wait again).
    static let stillWaiting: [String: Set<String>] = [
        "BUILD_UPLOAD_STATE_UPDATED": ["AWAITING_UPLOAD", "PROCESSING"],
        "APP_STORE_VERSION_APP_VERSION_STATE_UPDATED": [
            "PREPARE_FOR_SUBMISSION", "READY_FOR_REVIEW", "WAITING_FOR_REVIEW", "IN_REVIEW", "PROCESSING_FOR_DISTRIBUTION",
            "WAITING_FOR_EXPORT_COMPLIANCE",
        ],
        "BUILD_BETA_DETAIL_EXTERNAL_BUILD_STATE_UPDATED": ["PROCESSING", "WAITING_FOR_BETA_REVIEW", "IN_BETA_REVIEW"],
    ]

    /// The event types `release webhook create` subscribes to by default: the ones a release waits on.
    package static let releaseEventTypes = [
        "BUILD_UPLOAD_STATE_UPDATED", "APP_STORE_VERSION_APP_VERSION_STATE_UPDATED", "BUILD_BETA_DETAIL_EXTERNAL_BUILD_STATE_UPDATED",
    ]

    /// The ref to run the release on again: `release/<version>`.
    package var ref: String? { version.map { "release/\($0)" } }

    package init(
        delivery: WebhookDelivery, appID: String? = nil, version: String? = nil, build: String? = nil, platform: String? = nil
    ) {
        self.delivery = delivery
        self.appID = appID
        self.version = version
        self.build = build
        self.platform = platform
        if delivery.isPing {
            resumes = false
            reason = "a test delivery (ping): nothing to resume"
        } else if let waiting = Self.stillWaiting[delivery.eventType] {
            if let state = delivery.newState, waiting.contains(state) {
                resumes = false
                reason = "the \(Self.subject(delivery)) is \(state): a release waiting on it would still wait"
            } else {
                resumes = true
                reason = "the \(Self.subject(delivery)) is \(delivery.newState ?? "in a new state"): resume the release"
            }
        } else {
            resumes = false
            reason = "\(delivery.eventType) is not an event a release waits on: nothing to resume"
        }
    }

    private static func subject(_ delivery: WebhookDelivery) -> String {
        switch delivery.instanceType {
        case "buildUploads"?: return "build upload"
        case "appStoreVersions"?: return "App Store version"
        case "buildBetaDetails"?: return "build's external TestFlight state"
        default: return "resource"
        }
    }

    /// Reads the resource the delivery names for its version and build. A resource the key cannot read leaves
    /// those unknown, with ``lookupProblem`` saying why (the delivery was verified; the lookup only adds detail).
    package static func resolve(_ delivery: WebhookDelivery, client: AppStoreConnectClient?) async -> WebhookResume {
        guard let client, let id = delivery.instanceID, let type = delivery.instanceType, !delivery.isPing else {
            return WebhookResume(delivery: delivery)
        }
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? id
        do {
            switch type {
            case "buildUploads":
                let upload = try await client.resource(BuildUploadAttributes.self, "/v1/buildUploads/\(escaped)")
                return WebhookResume(
                    delivery: delivery, version: upload.attributes?.cfBundleShortVersionString, build: upload.attributes?.cfBundleVersion,
                    platform: upload.attributes?.platform)
            case "appStoreVersions":
                let version = try await client.resource(AppStoreVersionAttributes.self, "/v1/appStoreVersions/\(escaped)")
                // A version without a build yet answers 404 here: the build stays unknown.
                let build = try? await client.resource(BuildAttributes.self, "/v1/appStoreVersions/\(escaped)/build")
                return WebhookResume(
                    delivery: delivery, appID: version.related["app"], version: version.attributes?.versionString,
                    build: build?.attributes?.version, platform: version.attributes?.platform)
            default:
                return WebhookResume(delivery: delivery)
            }
        } catch {
            var resume = WebhookResume(delivery: delivery)
            resume.lookupProblem = "could not read \(type) \(id): \(error)"
            return resume
        }
    }

    /// The answer for programs (`--json`).
    package var json: [String: Any] {
        var object: [String: Any] = [
            "verified": true,
            "event": delivery.eventType,
            "resume": resumes,
            "reason": reason,
        ]
        let optional: [(String, String?)] = [
            ("id", delivery.id), ("resource_type", delivery.instanceType), ("resource_id", delivery.instanceID),
            ("old_state", delivery.oldState), ("new_state", delivery.newState), ("timestamp", delivery.timestamp),
            ("app_id", appID), ("version", version), ("build", build), ("platform", platform), ("ref", resumes ? ref : nil),
            ("lookup_problem", lookupProblem),
        ]
        for (key, value) in optional { object[key] = value ?? NSNull() }
        return object
    }

    /// The answer for people, one fact a line.
    package var text: String {
        var lines = ["verified: \(delivery.eventType)" + (delivery.id.map { " (\($0))" } ?? "")]
        if let type = delivery.instanceType {
            lines.append("resource: \(type) \(delivery.instanceID ?? "-")")
        }
        if delivery.oldState != nil || delivery.newState != nil {
            lines.append("state: \(delivery.oldState ?? "-") -> \(delivery.newState ?? "-")")
        }
        if let appID { lines.append("app: \(appID)") }
        if version != nil || build != nil { lines.append("version: \(version ?? "-") (\(build ?? "-"))") }
        if let lookupProblem { lines.append("note: \(lookupProblem)") }
        lines.append(reason)
        if resumes {
            if let ref {
                lines.append("resume: run the release pipeline again on \(ref) (e.g. gh workflow run WORKFLOW --ref \(ref))")
            } else {
                lines.append(
                    "resume: run the release pipeline again on every open release/* branch (set APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID and APP_STORE_CONNECT_KEY to name the one)"
                )
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
