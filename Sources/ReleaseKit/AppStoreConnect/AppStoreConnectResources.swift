import Foundation

// The JSON:API resources of App Store Connect that a release reads, as Apple's OpenAPI contract (4.4.1) names
// them. Only the attributes the steps use are decoded; every one is optional, as the contract makes them.

/// One JSON:API resource object: `type`, `id`, `attributes`, and the ids its to-one relationships point at.
public struct Resource<Attributes: Decodable & Sendable>: Decodable, Sendable {
    public var type: String
    public var id: String
    public var attributes: Attributes?
    /// Relationship name → the id in its `data` (to-one relationships that carry linkage).
    public var related: [String: String] = [:]

    enum CodingKeys: String, CodingKey { case type, id, attributes, relationships }
    private struct Relationship: Decodable {
        var data: Linkage?
        struct Linkage: Decodable { var type: String; var id: String }
        init(from decoder: any Decoder) throws {
            // A to-many relationship's `data` is an array; only to-one linkage is kept.
            let container = try decoder.container(keyedBy: CodingKeys.self)
            data = try? container.decodeIfPresent(Linkage.self, forKey: .data)
        }
        enum CodingKeys: String, CodingKey { case data }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        id = try container.decode(String.self, forKey: .id)
        attributes = try container.decodeIfPresent(Attributes.self, forKey: .attributes)
        let relationships = try container.decodeIfPresent([String: Relationship].self, forKey: .relationships) ?? [:]
        related = relationships.compactMapValues { $0.data?.id }
    }
}

/// A document whose `data` is one resource (`…Response`).
struct Single<Attributes: Decodable & Sendable>: Decodable, Sendable {
    var data: Resource<Attributes>
}

/// `App`.
public struct AppAttributes: Decodable, Sendable {
    public var bundleId: String?
    public var name: String?
}

/// `BuildUpload`: one upload of a version and build, with its processing state.
public struct BuildUploadAttributes: Decodable, Sendable {
    public var cfBundleShortVersionString: String?
    public var cfBundleVersion: String?
    public var platform: String?
    public var state: UploadState?

    /// `BuildUpload.attributes.state`: `AWAITING_UPLOAD`, `PROCESSING`, `FAILED` or `COMPLETE`, with Apple's
    /// errors, warnings and infos (`StateDetail {code, description}`).
    public struct UploadState: Decodable, Sendable {
        public var state: String?
        public var errors: [StateDetail]?
        public var warnings: [StateDetail]?
        public var infos: [StateDetail]?
    }
}

/// `StateDetail` (and `AppMediaStateError`): a code and Apple's description, shown verbatim.
public struct StateDetail: Decodable, Sendable, Equatable {
    public var code: String?
    public var description: String?

    /// `ITMS-90062: This bundle is invalid…`, as Apple wrote it.
    public var line: String {
        [code, description].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
    }
}

/// `BuildUploadFile`: the file of an upload, and where to send its bytes.
public struct BuildUploadFileAttributes: Decodable, Sendable {
    public var fileName: String?
    public var fileSize: Int64?
    public var uti: String?
    public var assetType: String?
    public var assetDeliveryState: DeliveryState?
    public var uploadOperations: [UploadOperation]?
    /// What the file was committed with: `{file: {hash, algorithm}}`.
    public var sourceFileChecksums: Checksums?

    /// `Checksums`: the whole file's hash (`MD5` or `SHA_256`) and an optional composite MD5.
    public struct Checksums: Decodable, Sendable {
        public var file: Checksum?
        public var composite: Checksum?
        public struct Checksum: Decodable, Sendable {
            public var hash: String?
            public var algorithm: String?
        }
    }

    /// `AppMediaAssetState`: `AWAITING_UPLOAD`, `UPLOAD_COMPLETE`, `COMPLETE` or `FAILED`.
    public struct DeliveryState: Decodable, Sendable {
        public var state: String?
        public var errors: [StateDetail]?
        public var warnings: [StateDetail]?
    }
}

/// `DeliveryFileUploadOperation`: send `length` bytes from `offset` with `method` to `url`, with exactly
/// `requestHeaders`.
public struct UploadOperation: Decodable, Sendable, Equatable {
    public var method: String?
    public var url: String?
    public var offset: Int64?
    public var length: Int64?
    public var requestHeaders: [Header]?
    public var expiration: String?
    public var partNumber: Int?

    /// `HttpHeader`.
    public struct Header: Decodable, Sendable, Equatable {
        public var name: String?
        public var value: String?
    }
}

/// `Build`.
public struct BuildAttributes: Decodable, Sendable {
    public var version: String?
    public var uploadedDate: String?
    public var processingState: String?
    public var expired: Bool?
    public var usesNonExemptEncryption: Bool?
}

/// `PreReleaseVersion`: a marketing version (train) of an app on a platform.
public struct PreReleaseVersionAttributes: Decodable, Sendable {
    public var version: String?
    public var platform: String?
}

/// `BetaGroup`.
public struct BetaGroupAttributes: Decodable, Sendable {
    public var name: String?
    public var isInternalGroup: Bool?
}

/// `BetaBuildLocalization`: the what-to-test text of a build in one locale.
public struct BetaBuildLocalizationAttributes: Decodable, Sendable {
    public var whatsNew: String?
    public var locale: String?
}

/// `BuildBetaDetail`: where a build is in internal and external testing.
public struct BuildBetaDetailAttributes: Decodable, Sendable {
    public var autoNotifyEnabled: Bool?
    public var internalBuildState: String?
    public var externalBuildState: String?
}

/// `BetaAppReviewSubmission`.
public struct BetaAppReviewSubmissionAttributes: Decodable, Sendable {
    public var betaReviewState: String?
}

/// `AppStoreVersion`: a version of the app on the App Store, with its review and release state.
public struct AppStoreVersionAttributes: Decodable, Sendable {
    public var platform: String?
    public var versionString: String?
    /// `AppStoreVersionState`: PREPARE_FOR_SUBMISSION, WAITING_FOR_REVIEW, IN_REVIEW, REJECTED, PENDING_DEVELOPER_RELEASE,
    /// READY_FOR_SALE, …
    public var appStoreState: String?
    public var releaseType: String?
    public var earliestReleaseDate: String?
}

/// `AppStoreVersionLocalization`: a version's metadata in one locale; the release uses `whatsNew`.
public struct AppStoreVersionLocalizationAttributes: Decodable, Sendable {
    public var locale: String?
    public var whatsNew: String?
}

/// `ReviewSubmission`: what an app sends to App Review on one platform, and where App Review is with it.
public struct ReviewSubmissionAttributes: Decodable, Sendable {
    public var platform: String?
    /// READY_FOR_REVIEW, WAITING_FOR_REVIEW, IN_REVIEW, UNRESOLVED_ISSUES, CANCELING, COMPLETING or COMPLETE.
    public var state: String?
    public var submittedDate: String?
}

/// `ReviewSubmissionItem`: one thing in a review submission (here, an App Store version).
public struct ReviewSubmissionItemAttributes: Decodable, Sendable {
    /// READY_FOR_REVIEW, ACCEPTED, APPROVED, REJECTED or REMOVED.
    public var state: String?
}

/// `AppStoreVersionPhasedRelease`: a 7-day rollout to users with automatic updates.
public struct PhasedReleaseAttributes: Decodable, Sendable {
    /// INACTIVE, ACTIVE, PAUSED or COMPLETE.
    public var phasedReleaseState: String?
    public var startDate: String?
    public var totalPauseDuration: Int?
    public var currentDayNumber: Int?
}

/// `AppStoreVersionReleaseRequest`: it has no attributes.
public struct ReleaseRequestAttributes: Decodable, Sendable {}

/// `CustomerReview`: one review of an App Store version; the guard reads its star `rating` (1 to 5).
public struct CustomerReviewAttributes: Decodable, Sendable {
    public var rating: Int?
    public var createdDate: String?
}
