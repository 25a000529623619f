import Foundation

// The JSON:API resources of App Store Connect that a release reads, as Apple's OpenAPI contract (4.4.1) names
// them. Only the attributes the steps use are decoded; every one is optional, as the contract makes them.

/// One JSON:API resource object: `type`, `id`, `attributes`, and the ids its to-one relationships point at.
package struct Resource<Attributes: Decodable & Sendable>: Decodable, Sendable {
    package var type: String
    package var id: String
    package var attributes: Attributes?
    /// Relationship name → the id in its `data` (to-one relationships that carry linkage).
    package var related: [String: String] = [:]

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

    package init(from decoder: any Decoder) throws {
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
package struct AppAttributes: Decodable, Sendable {
    package var bundleId: String?
    package var name: String?
}

/// `BuildUpload`: one upload of a version and build, with its processing state.
package struct BuildUploadAttributes: Decodable, Sendable {
    package var cfBundleShortVersionString: String?
    package var cfBundleVersion: String?
    package var platform: String?
    package var state: UploadState?

    /// `BuildUpload.attributes.state`: `AWAITING_UPLOAD`, `PROCESSING`, `FAILED` or `COMPLETE`, with Apple's
    /// errors, warnings and infos (`StateDetail {code, description}`).
    package struct UploadState: Decodable, Sendable {
        package var state: String?
        package var errors: [StateDetail]?
        package var warnings: [StateDetail]?
        package var infos: [StateDetail]?
    }
}

/// `StateDetail` (and `AppMediaStateError`): a code and Apple's description, shown verbatim.
package struct StateDetail: Decodable, Sendable, Equatable {
    package var code: String?
    package var description: String?

    /// `ITMS-90062: This bundle is invalid…`, as Apple wrote it.
    package var line: String {
        [code, description].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
    }
}

/// `BuildUploadFile`: the file of an upload, and where to send its bytes.
package struct BuildUploadFileAttributes: Decodable, Sendable {
    package var fileName: String?
    package var fileSize: Int64?
    package var uti: String?
    package var assetType: String?
    package var assetDeliveryState: DeliveryState?
    package var uploadOperations: [UploadOperation]?
    /// What the file was committed with: `{file: {hash, algorithm}}`.
    package var sourceFileChecksums: Checksums?

    /// `Checksums`: the whole file's hash (`MD5` or `SHA_256`) and an optional composite MD5.
    package struct Checksums: Decodable, Sendable {
        package var file: Checksum?
        package var composite: Checksum?
        package struct Checksum: Decodable, Sendable {
            package var hash: String?
            package var algorithm: String?
        }
    }

    /// `AppMediaAssetState`: `AWAITING_UPLOAD`, `UPLOAD_COMPLETE`, `COMPLETE` or `FAILED`.
    package struct DeliveryState: Decodable, Sendable {
        package var state: String?
        package var errors: [StateDetail]?
        package var warnings: [StateDetail]?
    }
}

/// `DeliveryFileUploadOperation`: send `length` bytes from `offset` with `method` to `url`, with exactly
/// `requestHeaders`.
package struct UploadOperation: Decodable, Sendable, Equatable {
    package var method: String?
    package var url: String?
    package var offset: Int64?
    package var length: Int64?
    package var requestHeaders: [Header]?
    package var expiration: String?
    package var partNumber: Int?

    /// `HttpHeader`.
    package struct Header: Decodable, Sendable, Equatable {
        package var name: String?
        package var value: String?
    }
}

/// `Build`.
package struct BuildAttributes: Decodable, Sendable {
    package var version: String?
    package var uploadedDate: String?
    package var processingState: String?
    package var expired: Bool?
    package var usesNonExemptEncryption: Bool?
}

/// `PreReleaseVersion`: a marketing version (train) of an app on a platform.
package struct PreReleaseVersionAttributes: Decodable, Sendable {
    package var version: String?
    package var platform: String?
}

/// `BetaGroup`.
package struct BetaGroupAttributes: Decodable, Sendable {
    package var name: String?
    package var isInternalGroup: Bool?
}

/// `BetaBuildLocalization`: the what-to-test text of a build in one locale.
package struct BetaBuildLocalizationAttributes: Decodable, Sendable {
    package var whatsNew: String?
    package var locale: String?
}

/// `BuildBetaDetail`: where a build is in internal and external testing.
package struct BuildBetaDetailAttributes: Decodable, Sendable {
    package var autoNotifyEnabled: Bool?
    package var internalBuildState: String?
    package var externalBuildState: String?
}

/// `BetaAppReviewSubmission`.
package struct BetaAppReviewSubmissionAttributes: Decodable, Sendable {
    package var betaReviewState: String?
}

/// `AppStoreVersion`: a version of the app on the App Store, with its review and release state.
package struct AppStoreVersionAttributes: Decodable, Sendable {
    package var platform: String?
    package var versionString: String?
    /// `AppStoreVersionState`: PREPARE_FOR_SUBMISSION, WAITING_FOR_REVIEW, IN_REVIEW, REJECTED, PENDING_DEVELOPER_RELEASE,
    /// READY_FOR_SALE, …
    package var appStoreState: String?
    package var releaseType: String?
    package var earliestReleaseDate: String?
}

/// `AppStoreVersionLocalization`: a version's metadata in one locale; the release uses `whatsNew`.
package struct AppStoreVersionLocalizationAttributes: Decodable, Sendable {
    package var locale: String?
    package var whatsNew: String?
}

/// `ReviewSubmission`: what an app sends to App Review on one platform, and where App Review is with it.
package struct ReviewSubmissionAttributes: Decodable, Sendable {
    package var platform: String?
    /// READY_FOR_REVIEW, WAITING_FOR_REVIEW, IN_REVIEW, UNRESOLVED_ISSUES, CANCELING, COMPLETING or COMPLETE.
    package var state: String?
    package var submittedDate: String?
}

/// `ReviewSubmissionItem`: one thing in a review submission (here, an App Store version).
package struct ReviewSubmissionItemAttributes: Decodable, Sendable {
    /// READY_FOR_REVIEW, ACCEPTED, APPROVED, REJECTED or REMOVED.
    package var state: String?
}

/// `AppStoreVersionPhasedRelease`: a 7-day rollout to users with automatic updates.
package struct PhasedReleaseAttributes: Decodable, Sendable {
    /// INACTIVE, ACTIVE, PAUSED or COMPLETE.
    package var phasedReleaseState: String?
    package var startDate: String?
    package var totalPauseDuration: Int?
    package var currentDayNumber: Int?
}

/// `AppStoreVersionReleaseRequest`: it has no attributes.
package struct ReleaseRequestAttributes: Decodable, Sendable {}

/// `CustomerReview`: one review of an App Store version; the guard reads its star `rating` (1 to 5).
package struct CustomerReviewAttributes: Decodable, Sendable {
    package var rating: Int?
    package var createdDate: String?
}
