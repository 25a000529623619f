import Foundation

/// What the local App Store Connect server keeps in `state.json`: every resource it serves, by type.
///
/// Plain records, no behaviour: the routes change them under the server's lock and persist the whole snapshot
/// after each change (a few kilobytes), so a restarted server, and a second rehearsal, continue where the last
/// one stopped. Upload bytes live beside it in `uploads/<fileID>`.
struct AppStoreConnectSnapshot: Codable, Sendable {
    struct App: Codable, Sendable {
        var id: String
        var bundleID: String
        var name: String
        var sku: String
        var primaryLocale: String
    }

    struct BuildUpload: Codable, Sendable {
        var id: String
        var appID: String
        var version: String
        var build: String
        var platform: String
        /// AWAITING_UPLOAD, PROCESSING, FAILED or COMPLETE.
        var state: String
        var errors: [AppStoreConnectStateDetail] = []
        var warnings: [AppStoreConnectStateDetail] = []
        var createdDate: Date
        var uploadedDate: Date?
        var buildID: String?
        /// GETs seen in the current state, for ``LocalAppStoreConnectServer/Configuration/processingPolls``.
        var polls = 0
    }

    struct UploadFile: Codable, Sendable {
        var id: String
        var uploadID: String
        var fileName: String
        var fileSize: Int64
        var uti: String
        var assetType: String
        /// AWAITING_UPLOAD, UPLOAD_COMPLETE, COMPLETE or FAILED.
        var state: String
        var errors: [AppStoreConnectStateDetail] = []
        var partSize: Int64
        /// The opaque header value each part must carry, by part (index 0 = part 1).
        var partTokens: [String]
        /// Part numbers whose bytes arrived whole.
        var received: Set<Int> = []
        /// SHA-256 of each received part, sent back as its `ETag`.
        var partDigests: [Int: String] = [:]
        var checksumHash: String?
        var checksumAlgorithm: String?
        var expiration: Date

        var partCount: Int { Int((fileSize + partSize - 1) / partSize) }

        /// Byte range of part `number` (1-based).
        func range(of number: Int) -> (offset: Int64, length: Int64) {
            let offset = Int64(number - 1) * partSize
            return (offset, min(partSize, fileSize - offset))
        }
    }

    struct PreReleaseVersion: Codable, Sendable {
        var id: String
        var appID: String
        var version: String
        var platform: String
    }

    struct Build: Codable, Sendable {
        var id: String
        var appID: String
        var preReleaseVersionID: String
        /// The build number (`CFBundleVersion`).
        var version: String
        /// PROCESSING, FAILED, INVALID or VALID.
        var processingState: String
        var uploadedDate: Date
        var expirationDate: Date
        var expired = false
        var usesNonExemptEncryption: Bool?
        var uploadID: String?
        var betaDetailID: String
        var polls = 0
    }

    struct BetaDetail: Codable, Sendable {
        var id: String
        var buildID: String
        var autoNotifyEnabled = false
        var internalBuildState: String
        var externalBuildState: String
    }

    struct BetaGroup: Codable, Sendable {
        var id: String
        var appID: String
        var name: String
        var isInternal: Bool
        var createdDate: Date
        var buildIDs: [String] = []
    }

    struct Localization: Codable, Sendable {
        var id: String
        var buildID: String
        var locale: String
        var whatsNew: String?
    }

    struct Submission: Codable, Sendable {
        var id: String
        var buildID: String
        var state: String
        var submittedDate: Date
    }

    struct AppStoreVersion: Codable, Sendable {
        var id: String
        var appID: String
        var platform: String
        var versionString: String
        /// `AppStoreVersionState`: PREPARE_FOR_SUBMISSION, WAITING_FOR_REVIEW, IN_REVIEW, REJECTED,
        /// PENDING_DEVELOPER_RELEASE, READY_FOR_SALE, …
        var appStoreState: String
        var releaseType: String?
        var earliestReleaseDate: String?
        var buildID: String?
        var createdDate: Date
    }

    struct VersionLocalization: Codable, Sendable {
        var id: String
        var versionID: String
        var locale: String
        var whatsNew: String?
    }

    struct ReviewSubmission: Codable, Sendable {
        var id: String
        var appID: String
        var platform: String
        /// READY_FOR_REVIEW, WAITING_FOR_REVIEW, IN_REVIEW, UNRESOLVED_ISSUES, CANCELING, COMPLETING or COMPLETE.
        var state: String
        var submittedDate: Date?
        /// Whether the submission was canceled (it ends COMPLETE either way).
        var canceled = false
    }

    struct ReviewItem: Codable, Sendable {
        var id: String
        var submissionID: String
        var versionID: String
        /// READY_FOR_REVIEW, ACCEPTED, APPROVED, REJECTED or REMOVED.
        var state: String
    }

    struct PhasedRelease: Codable, Sendable {
        var id: String
        var versionID: String
        /// INACTIVE, ACTIVE, PAUSED or COMPLETE.
        var state: String
        var startDate: Date?
        var currentDayNumber: Int?
        var totalPauseDuration: Int?
    }

    struct CustomerReview: Codable, Sendable {
        var id: String
        var versionID: String
        /// 1 to 5 stars.
        var rating: Int
        var title: String
        var body: String
        var reviewerNickname: String
        var territory: String
        var createdDate: Date
    }

    /// A webhook (`POST /v1/webhooks`). The stand-in keeps the secret, as Apple must, to sign deliveries; the
    /// `Webhook` documents it answers with never carry it.
    struct Webhook: Codable, Sendable {
        var id: String
        var appID: String
        var name: String
        var url: String
        var secret: String
        var eventTypes: [String]
        var enabled: Bool
    }

    /// Apps get Apple-style numeric ids counted from here; everything else gets a UUID.
    var nextAppNumber = 1_600_000_001
    var apps: [App] = []
    var buildUploads: [BuildUpload] = []
    var files: [UploadFile] = []
    var preReleaseVersions: [PreReleaseVersion] = []
    var builds: [Build] = []
    var betaDetails: [BetaDetail] = []
    var betaGroups: [BetaGroup] = []
    var localizations: [Localization] = []
    var submissions: [Submission] = []
    var appStoreVersions: [AppStoreVersion] = []
    var versionLocalizations: [VersionLocalization] = []
    var reviewSubmissions: [ReviewSubmission] = []
    var reviewItems: [ReviewItem] = []
    var phasedReleases: [PhasedRelease] = []
    var customerReviews: [CustomerReview] = []
    var webhooks: [Webhook] = []
    /// Certificates, bundle ids, devices and profiles (optional, so a state file from before them still loads).
    var signing: AppStoreConnectSigningState?
}

extension AppStoreConnectSnapshot {
    /// Decodes a state file, written by this version or an older one (which lacks the App Store release records).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func list<T: Decodable>(_ key: CodingKeys) throws -> [T] { try container.decodeIfPresent([T].self, forKey: key) ?? [] }
        nextAppNumber = try container.decodeIfPresent(Int.self, forKey: .nextAppNumber) ?? 1_600_000_001
        apps = try list(.apps)
        buildUploads = try list(.buildUploads)
        files = try list(.files)
        preReleaseVersions = try list(.preReleaseVersions)
        builds = try list(.builds)
        betaDetails = try list(.betaDetails)
        betaGroups = try list(.betaGroups)
        localizations = try list(.localizations)
        submissions = try list(.submissions)
        appStoreVersions = try list(.appStoreVersions)
        versionLocalizations = try list(.versionLocalizations)
        reviewSubmissions = try list(.reviewSubmissions)
        reviewItems = try list(.reviewItems)
        phasedReleases = try list(.phasedReleases)
        customerReviews = try list(.customerReviews)
        webhooks = try list(.webhooks)
        signing = try container.decodeIfPresent(AppStoreConnectSigningState.self, forKey: .signing)
    }
}
