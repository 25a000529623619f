import Foundation
import ReleaseSupport

/// Resources as JSON:API objects, shaped by the contract's schemas (`App`, `BuildUpload`, `BuildUploadFile`,
/// `Build`, …): `type`, `id`, `attributes`, `relationships` with `links` and, for to-one relationships the
/// schema gives `data`, the linkage; `links.self`. Attributes without a value are left out, as Apple does.
extension LocalAppStoreConnectServer {
    func resourceURL(_ type: String, _ id: String) -> String { "\(url)/v1/\(type)/\(id)" }

    /// A relationship object: `links` (self, related) and, when given, the `data` linkage.
    func relationship(_ type: String, _ id: String, _ name: String, data: (String, String)? = nil, links: Bool = true) -> [String: Any] {
        var object: [String: Any] = [:]
        if links {
            object["links"] = ["self": "\(resourceURL(type, id))/relationships/\(name)", "related": "\(resourceURL(type, id))/\(name)"]
        }
        if let data { object["data"] = ["type": data.0, "id": data.1] }
        return object
    }

    static func date(_ date: Date) -> String { Timestamp.iso8601(date) }

    func appJSON(_ app: AppStoreConnectSnapshot.App) -> [String: Any] {
        [
            "type": "apps", "id": app.id,
            "attributes": ["name": app.name, "bundleId": app.bundleID, "sku": app.sku, "primaryLocale": app.primaryLocale],
            "relationships": [
                "betaGroups": relationship("apps", app.id, "betaGroups"),
                "preReleaseVersions": relationship("apps", app.id, "preReleaseVersions"),
                "builds": relationship("apps", app.id, "builds"),
                "buildUploads": relationship("apps", app.id, "buildUploads"),
            ],
            "links": ["self": resourceURL("apps", app.id)],
        ]
    }

    func buildUploadJSON(_ upload: AppStoreConnectSnapshot.BuildUpload, files: [AppStoreConnectSnapshot.UploadFile]) -> [String: Any] {
        var attributes: [String: Any] = [
            "cfBundleShortVersionString": upload.version,
            "cfBundleVersion": upload.build,
            "createdDate": Self.date(upload.createdDate),
            "platform": upload.platform,
            "state": [
                "state": upload.state,
                "errors": upload.errors.map(Self.detailJSON),
                "warnings": upload.warnings.map(Self.detailJSON),
                "infos": [] as [Any],
            ] as [String: Any],
        ]
        if let uploaded = upload.uploadedDate { attributes["uploadedDate"] = Self.date(uploaded) }
        var relationships: [String: Any] = [
            "buildUploadFiles": [
                "links": [
                    "self": "\(resourceURL("buildUploads", upload.id))/relationships/buildUploadFiles",
                    "related": "\(resourceURL("buildUploads", upload.id))/buildUploadFiles",
                ]
            ]
        ]
        if let build = upload.buildID { relationships["build"] = ["data": ["type": "builds", "id": build]] }
        let slots = ["ASSET": "assetFile", "ASSET_DESCRIPTION": "assetDescriptionFile", "ASSET_SPI": "assetSpiFile"]
        for file in files where file.uploadID == upload.id {
            if let slot = slots[file.assetType] { relationships[slot] = ["data": ["type": "buildUploadFiles", "id": file.id]] }
        }
        return [
            "type": "buildUploads", "id": upload.id, "attributes": attributes, "relationships": relationships,
            "links": ["self": resourceURL("buildUploads", upload.id)],
        ]
    }

    static func detailJSON(_ detail: AppStoreConnectStateDetail) -> [String: Any] {
        ["code": detail.code, "description": detail.description]
    }

    func uploadFileJSON(_ file: AppStoreConnectSnapshot.UploadFile) -> [String: Any] {
        var attributes: [String: Any] = [
            "assetDeliveryState": [
                "state": file.state, "errors": file.errors.map(Self.detailJSON), "warnings": [] as [Any],
            ] as [String: Any],
            "assetToken": "stand-in/\(file.id)",
            "assetType": file.assetType,
            "fileName": file.fileName,
            "fileSize": file.fileSize,
            "uti": file.uti,
        ]
        if let hash = file.checksumHash, let algorithm = file.checksumAlgorithm {
            attributes["sourceFileChecksums"] = ["file": ["hash": hash, "algorithm": algorithm]]
        }
        // Operations are offered while bytes are awaited, so a client resuming an upload can fetch them again.
        if file.state == "AWAITING_UPLOAD" {
            attributes["uploadOperations"] = (1...max(1, file.partCount)).map { part -> [String: Any] in
                let (offset, length) = file.range(of: part)
                return [
                    "method": "PUT",
                    "url": "\(url)/upload/\(file.id)/\(part)",
                    "offset": offset,
                    "length": length,
                    "partNumber": part,
                    "expiration": Self.date(file.expiration),
                    "requestHeaders": Self.partHeaders(file, part: part).map { ["name": $0.0, "value": $0.1] },
                ]
            }
        }
        return ["type": "buildUploadFiles", "id": file.id, "attributes": attributes, "links": ["self": resourceURL("buildUploadFiles", file.id)]]
    }

    /// The headers a part upload must carry, verbatim: a content type and an opaque per-part token, as a
    /// presigned storage URL would require.
    static func partHeaders(_ file: AppStoreConnectSnapshot.UploadFile, part: Int) -> [(String, String)] {
        [("Content-Type", "application/octet-stream"), (partTokenHeader, file.partTokens[part - 1])]
    }

    static let partTokenHeader = "x-stand-in-part-token"

    func buildJSON(_ build: AppStoreConnectSnapshot.Build, submission: String?) -> [String: Any] {
        var attributes: [String: Any] = [
            "version": build.version,
            "uploadedDate": Self.date(build.uploadedDate),
            "expirationDate": Self.date(build.expirationDate),
            "expired": build.expired,
            "minOsVersion": "16.0",
            "processingState": build.processingState,
            "buildAudienceType": "APP_STORE_ELIGIBLE",
        ]
        if let encryption = build.usesNonExemptEncryption { attributes["usesNonExemptEncryption"] = encryption }
        var relationships: [String: Any] = [
            "preReleaseVersion": relationship("builds", build.id, "preReleaseVersion", data: ("preReleaseVersions", build.preReleaseVersionID)),
            "app": relationship("builds", build.id, "app", data: ("apps", build.appID)),
            "buildBetaDetail": relationship("builds", build.id, "buildBetaDetail", data: ("buildBetaDetails", build.betaDetailID)),
            "betaAppReviewSubmission": relationship("builds", build.id, "betaAppReviewSubmission", data: submission.map { ("betaAppReviewSubmissions", $0) }),
            "betaGroups": relationship("builds", build.id, "betaGroups"),
            "betaBuildLocalizations": relationship("builds", build.id, "betaBuildLocalizations"),
            "individualTesters": relationship("builds", build.id, "individualTesters"),
        ]
        if let upload = build.uploadID { relationships["buildUpload"] = ["data": ["type": "buildUploads", "id": upload]] }
        return ["type": "builds", "id": build.id, "attributes": attributes, "relationships": relationships, "links": ["self": resourceURL("builds", build.id)]]
    }

    func preReleaseVersionJSON(_ version: AppStoreConnectSnapshot.PreReleaseVersion) -> [String: Any] {
        [
            "type": "preReleaseVersions", "id": version.id,
            "attributes": ["version": version.version, "platform": version.platform],
            "relationships": [
                "builds": relationship("preReleaseVersions", version.id, "builds"),
                "app": relationship("preReleaseVersions", version.id, "app", data: ("apps", version.appID)),
            ],
            "links": ["self": resourceURL("preReleaseVersions", version.id)],
        ]
    }

    func betaDetailJSON(_ detail: AppStoreConnectSnapshot.BetaDetail) -> [String: Any] {
        [
            "type": "buildBetaDetails", "id": detail.id,
            "attributes": [
                "autoNotifyEnabled": detail.autoNotifyEnabled,
                "internalBuildState": detail.internalBuildState,
                "externalBuildState": detail.externalBuildState,
            ] as [String: Any],
            "relationships": ["build": relationship("buildBetaDetails", detail.id, "build", data: ("builds", detail.buildID))],
            "links": ["self": resourceURL("buildBetaDetails", detail.id)],
        ]
    }

    func betaGroupJSON(_ group: AppStoreConnectSnapshot.BetaGroup) -> [String: Any] {
        [
            "type": "betaGroups", "id": group.id,
            "attributes": [
                "name": group.name,
                "createdDate": Self.date(group.createdDate),
                "isInternalGroup": group.isInternal,
                "hasAccessToAllBuilds": false,
                "publicLinkEnabled": false,
                "publicLinkLimitEnabled": false,
                "feedbackEnabled": true,
            ] as [String: Any],
            "relationships": [
                "app": relationship("betaGroups", group.id, "app", data: ("apps", group.appID)),
                "builds": relationship("betaGroups", group.id, "builds"),
                "betaTesters": relationship("betaGroups", group.id, "betaTesters"),
            ],
            "links": ["self": resourceURL("betaGroups", group.id)],
        ]
    }

    func localizationJSON(_ localization: AppStoreConnectSnapshot.Localization) -> [String: Any] {
        var attributes: [String: Any] = ["locale": localization.locale]
        if let whatsNew = localization.whatsNew { attributes["whatsNew"] = whatsNew }
        return [
            "type": "betaBuildLocalizations", "id": localization.id, "attributes": attributes,
            "relationships": ["build": relationship("betaBuildLocalizations", localization.id, "build", data: ("builds", localization.buildID))],
            "links": ["self": resourceURL("betaBuildLocalizations", localization.id)],
        ]
    }

    func submissionJSON(_ submission: AppStoreConnectSnapshot.Submission) -> [String: Any] {
        [
            "type": "betaAppReviewSubmissions", "id": submission.id,
            "attributes": ["betaReviewState": submission.state, "submittedDate": Self.date(submission.submittedDate)],
            "relationships": ["build": relationship("betaAppReviewSubmissions", submission.id, "build", data: ("builds", submission.buildID))],
            "links": ["self": resourceURL("betaAppReviewSubmissions", submission.id)],
        ]
    }
}
