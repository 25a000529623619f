import Foundation
import ReleaseAppStoreConnect

/// The operations of Apple's OpenAPI subset (`../shared/reference/app-store-connect`) the local server
/// speaks (uploads and TestFlight; signing resources; App Store versions, review submissions, phased releases and release requests), named by their `operationId`, with method and path template as the contract has them.
package enum AppStoreConnectOperation: String, Sendable, CaseIterable {
    case buildUploadsCreate = "buildUploads_createInstance"
    case buildUploadsGet = "buildUploads_getInstance"
    case buildUploadsDelete = "buildUploads_deleteInstance"
    case appBuildUploads = "apps_buildUploads_getToManyRelated"
    case buildUploadFilesOfUpload = "buildUploads_buildUploadFiles_getToManyRelated"
    case buildUploadFilesCreate = "buildUploadFiles_createInstance"
    case buildUploadFilesGet = "buildUploadFiles_getInstance"
    case buildUploadFilesUpdate = "buildUploadFiles_updateInstance"
    case buildsList = "builds_getCollection"
    case buildsGet = "builds_getInstance"
    case buildsUpdate = "builds_updateInstance"
    case buildBetaDetailOfBuild = "builds_buildBetaDetail_getToOneRelated"
    case preReleaseVersionsList = "preReleaseVersions_getCollection"
    case appsList = "apps_getCollection"
    case betaGroupsList = "betaGroups_getCollection"
    case betaGroupAddBuilds = "betaGroups_builds_createToManyRelationship"
    case buildAddBetaGroups = "builds_betaGroups_createToManyRelationship"
    case betaBuildLocalizationsList = "betaBuildLocalizations_getCollection"
    case betaBuildLocalizationsCreate = "betaBuildLocalizations_createInstance"
    case betaBuildLocalizationsUpdate = "betaBuildLocalizations_updateInstance"
    case buildBetaDetailsList = "buildBetaDetails_getCollection"
    case buildBetaDetailsGet = "buildBetaDetails_getInstance"
    case buildBetaDetailsUpdate = "buildBetaDetails_updateInstance"
    case betaAppReviewSubmissionsCreate = "betaAppReviewSubmissions_createInstance"
    case betaAppReviewSubmissionsGet = "betaAppReviewSubmissions_getInstance"
    // Webhooks (issue 37): an app's webhooks, created, read, changed and deleted; deliveries go out on state changes.
    case appWebhooks = "apps_webhooks_getToManyRelated"
    case webhooksCreate = "webhooks_createInstance"
    case webhooksGet = "webhooks_getInstance"
    case webhooksUpdate = "webhooks_updateInstance"
    case webhooksDelete = "webhooks_deleteInstance"
    // Signing (issue 27): certificates, bundle ids, devices, profiles.
    case certificatesList = "certificates_getCollection"
    case certificatesCreate = "certificates_createInstance"
    case certificatesGet = "certificates_getInstance"
    case certificatesDelete = "certificates_deleteInstance"
    case bundleIdsList = "bundleIds_getCollection"
    case bundleIdsCreate = "bundleIds_createInstance"
    case bundleIdProfiles = "bundleIds_profiles_getToManyRelated"
    case devicesList = "devices_getCollection"
    case profilesList = "profiles_getCollection"
    case profilesCreate = "profiles_createInstance"
    case profilesGet = "profiles_getInstance"
    case profilesDelete = "profiles_deleteInstance"

    case appAppStoreVersions = "apps_appStoreVersions_getToManyRelated"
    case appStoreVersionsCreate = "appStoreVersions_createInstance"
    case appStoreVersionsGet = "appStoreVersions_getInstance"
    case appStoreVersionsUpdate = "appStoreVersions_updateInstance"
    case appStoreVersionBuild = "appStoreVersions_build_getToOneRelated"
    case appStoreVersionBuildUpdate = "appStoreVersions_build_updateToOneRelationship"
    case appStoreVersionLocalizationsOfVersion = "appStoreVersions_appStoreVersionLocalizations_getToManyRelated"
    case appStoreVersionLocalizationsCreate = "appStoreVersionLocalizations_createInstance"
    case appStoreVersionLocalizationsGet = "appStoreVersionLocalizations_getInstance"
    case appStoreVersionLocalizationsUpdate = "appStoreVersionLocalizations_updateInstance"
    case reviewSubmissionsList = "reviewSubmissions_getCollection"
    case reviewSubmissionsCreate = "reviewSubmissions_createInstance"
    case reviewSubmissionsGet = "reviewSubmissions_getInstance"
    case reviewSubmissionsUpdate = "reviewSubmissions_updateInstance"
    case reviewSubmissionItemsOfSubmission = "reviewSubmissions_items_getToManyRelated"
    case reviewSubmissionItemsCreate = "reviewSubmissionItems_createInstance"
    case reviewSubmissionItemsDelete = "reviewSubmissionItems_deleteInstance"
    case phasedReleasesCreate = "appStoreVersionPhasedReleases_createInstance"
    case phasedReleasesUpdate = "appStoreVersionPhasedReleases_updateInstance"
    case phasedReleasesDelete = "appStoreVersionPhasedReleases_deleteInstance"
    case phasedReleaseOfVersion = "appStoreVersions_appStoreVersionPhasedRelease_getToOneRelated"
    case releaseRequestsCreate = "appStoreVersionReleaseRequests_createInstance"
    // Customer reviews of a version (the 4.4.1 extended contract): the rollout guard reads their ratings.
    case appStoreVersionCustomerReviews = "appStoreVersions_customerReviews_getToManyRelated"

    /// Whether the operation is one of the App Store release's (versions, review submissions, phased releases,
    /// release requests) rather than an upload's or TestFlight's.
    package var isAppStoreRelease: Bool {
        guard let index = Self.allCases.firstIndex(of: self), let first = Self.allCases.firstIndex(of: .appAppStoreVersions) else { return false }
        return index >= first
    }

    /// The HTTP method.
    package var method: String {
        switch self {
        case .buildUploadsCreate, .buildUploadFilesCreate, .betaGroupAddBuilds, .buildAddBetaGroups,
            .betaBuildLocalizationsCreate, .betaAppReviewSubmissionsCreate, .appStoreVersionsCreate,
            .appStoreVersionLocalizationsCreate, .reviewSubmissionsCreate, .reviewSubmissionItemsCreate, .phasedReleasesCreate,
            .releaseRequestsCreate,
            .certificatesCreate, .bundleIdsCreate, .profilesCreate, .webhooksCreate:
            return "POST"
        case .buildUploadFilesUpdate, .buildsUpdate, .betaBuildLocalizationsUpdate, .buildBetaDetailsUpdate, .appStoreVersionsUpdate,
            .appStoreVersionBuildUpdate, .appStoreVersionLocalizationsUpdate, .reviewSubmissionsUpdate, .phasedReleasesUpdate,
            .webhooksUpdate:
            return "PATCH"
        case .buildUploadsDelete, .reviewSubmissionItemsDelete, .phasedReleasesDelete, .certificatesDelete, .profilesDelete, .webhooksDelete:
            return "DELETE"
        default:
            return "GET"
        }
    }

    /// The contract's request document of the operation: the type generated from Apple's OpenAPI contract
    /// (`Sources/ReleaseKit/AppStoreConnect/Generated`) that the client encodes the body from and the stand-in decodes it
    /// with. Nil for an operation without a body.
    package var requestDocument: (any Decodable.Type)? {
        switch self {
        case .buildUploadsCreate: return Components.Schemas.BuildUploadCreateRequest.self
        case .buildUploadFilesCreate: return Components.Schemas.BuildUploadFileCreateRequest.self
        case .buildUploadFilesUpdate: return Components.Schemas.BuildUploadFileUpdateRequest.self
        case .buildsUpdate: return Components.Schemas.BuildUpdateRequest.self
        case .betaGroupAddBuilds: return Components.Schemas.BetaGroupBuildsLinkagesRequest.self
        case .buildAddBetaGroups: return Components.Schemas.BuildBetaGroupsLinkagesRequest.self
        case .betaBuildLocalizationsCreate: return Components.Schemas.BetaBuildLocalizationCreateRequest.self
        case .betaBuildLocalizationsUpdate: return Components.Schemas.BetaBuildLocalizationUpdateRequest.self
        case .buildBetaDetailsUpdate: return Components.Schemas.BuildBetaDetailUpdateRequest.self
        case .betaAppReviewSubmissionsCreate: return Components.Schemas.BetaAppReviewSubmissionCreateRequest.self
        case .webhooksCreate: return Components.Schemas.WebhookCreateRequest.self
        case .webhooksUpdate: return Components.Schemas.WebhookUpdateRequest.self
        case .certificatesCreate: return Components.Schemas.CertificateCreateRequest.self
        case .bundleIdsCreate: return Components.Schemas.BundleIdCreateRequest.self
        case .profilesCreate: return Components.Schemas.ProfileCreateRequest.self
        case .appStoreVersionsCreate: return Components.Schemas.AppStoreVersionCreateRequest.self
        case .appStoreVersionsUpdate: return Components.Schemas.AppStoreVersionUpdateRequest.self
        case .appStoreVersionBuildUpdate: return Components.Schemas.AppStoreVersionBuildLinkageRequest.self
        case .appStoreVersionLocalizationsCreate: return Components.Schemas.AppStoreVersionLocalizationCreateRequest.self
        case .appStoreVersionLocalizationsUpdate: return Components.Schemas.AppStoreVersionLocalizationUpdateRequest.self
        case .reviewSubmissionsCreate: return Components.Schemas.ReviewSubmissionCreateRequest.self
        case .reviewSubmissionsUpdate: return Components.Schemas.ReviewSubmissionUpdateRequest.self
        case .reviewSubmissionItemsCreate: return Components.Schemas.ReviewSubmissionItemCreateRequest.self
        case .phasedReleasesCreate: return Components.Schemas.AppStoreVersionPhasedReleaseCreateRequest.self
        case .phasedReleasesUpdate: return Components.Schemas.AppStoreVersionPhasedReleaseUpdateRequest.self
        case .releaseRequestsCreate: return Components.Schemas.AppStoreVersionReleaseRequestCreateRequest.self
        default: return nil
        }
    }

    /// What the stand-in says of `body` as this operation's request document: nil when the contract's type decodes it,
    /// else Apple's error code and the pointer to the value (`ENTITY_ERROR.ATTRIBUTE.INVALID at /data/attributes/platform`).
    package func requestProblem(_ body: Data) -> String? {
        do {
            try AppStoreConnectEntity.decode(body, as: self)
            return nil
        } catch let problem as AppStoreConnectProblem {
            return problem.code + " at " + (problem.pointer ?? "")
        } catch {
            return "\(error)"
        }
    }

    /// The path template, `{id}` standing for the one path parameter.
    package var pathTemplate: String {
        switch self {
        case .buildUploadsCreate: return "/v1/buildUploads"
        case .buildUploadsGet, .buildUploadsDelete: return "/v1/buildUploads/{id}"
        case .appBuildUploads: return "/v1/apps/{id}/buildUploads"
        case .buildUploadFilesOfUpload: return "/v1/buildUploads/{id}/buildUploadFiles"
        case .buildUploadFilesCreate: return "/v1/buildUploadFiles"
        case .buildUploadFilesGet, .buildUploadFilesUpdate: return "/v1/buildUploadFiles/{id}"
        case .buildsList: return "/v1/builds"
        case .buildsGet, .buildsUpdate: return "/v1/builds/{id}"
        case .buildBetaDetailOfBuild: return "/v1/builds/{id}/buildBetaDetail"
        case .preReleaseVersionsList: return "/v1/preReleaseVersions"
        case .appsList: return "/v1/apps"
        case .betaGroupsList: return "/v1/betaGroups"
        case .betaGroupAddBuilds: return "/v1/betaGroups/{id}/relationships/builds"
        case .buildAddBetaGroups: return "/v1/builds/{id}/relationships/betaGroups"
        case .betaBuildLocalizationsList, .betaBuildLocalizationsCreate: return "/v1/betaBuildLocalizations"
        case .betaBuildLocalizationsUpdate: return "/v1/betaBuildLocalizations/{id}"
        case .buildBetaDetailsList: return "/v1/buildBetaDetails"
        case .buildBetaDetailsGet, .buildBetaDetailsUpdate: return "/v1/buildBetaDetails/{id}"
        case .betaAppReviewSubmissionsCreate: return "/v1/betaAppReviewSubmissions"
        case .betaAppReviewSubmissionsGet: return "/v1/betaAppReviewSubmissions/{id}"
        case .appAppStoreVersions: return "/v1/apps/{id}/appStoreVersions"
        case .appStoreVersionsCreate: return "/v1/appStoreVersions"
        case .appStoreVersionsGet, .appStoreVersionsUpdate: return "/v1/appStoreVersions/{id}"
        case .appStoreVersionBuild: return "/v1/appStoreVersions/{id}/build"
        case .appStoreVersionBuildUpdate: return "/v1/appStoreVersions/{id}/relationships/build"
        case .appStoreVersionLocalizationsOfVersion: return "/v1/appStoreVersions/{id}/appStoreVersionLocalizations"
        case .appStoreVersionLocalizationsCreate: return "/v1/appStoreVersionLocalizations"
        case .appStoreVersionLocalizationsGet, .appStoreVersionLocalizationsUpdate: return "/v1/appStoreVersionLocalizations/{id}"
        case .reviewSubmissionsList, .reviewSubmissionsCreate: return "/v1/reviewSubmissions"
        case .reviewSubmissionsGet, .reviewSubmissionsUpdate: return "/v1/reviewSubmissions/{id}"
        case .reviewSubmissionItemsOfSubmission: return "/v1/reviewSubmissions/{id}/items"
        case .reviewSubmissionItemsCreate: return "/v1/reviewSubmissionItems"
        case .reviewSubmissionItemsDelete: return "/v1/reviewSubmissionItems/{id}"
        case .phasedReleasesCreate: return "/v1/appStoreVersionPhasedReleases"
        case .phasedReleasesUpdate, .phasedReleasesDelete: return "/v1/appStoreVersionPhasedReleases/{id}"
        case .phasedReleaseOfVersion: return "/v1/appStoreVersions/{id}/appStoreVersionPhasedRelease"
        case .releaseRequestsCreate: return "/v1/appStoreVersionReleaseRequests"
        case .appStoreVersionCustomerReviews: return "/v1/appStoreVersions/{id}/customerReviews"
        case .appWebhooks: return "/v1/apps/{id}/webhooks"
        case .webhooksCreate: return "/v1/webhooks"
        case .webhooksGet, .webhooksUpdate, .webhooksDelete: return "/v1/webhooks/{id}"
        case .certificatesList, .certificatesCreate: return "/v1/certificates"
        case .certificatesGet, .certificatesDelete: return "/v1/certificates/{id}"
        case .bundleIdsList, .bundleIdsCreate: return "/v1/bundleIds"
        case .bundleIdProfiles: return "/v1/bundleIds/{id}/profiles"
        case .devicesList: return "/v1/devices"
        case .profilesList, .profilesCreate: return "/v1/profiles"
        case .profilesGet, .profilesDelete: return "/v1/profiles/{id}"
        }
    }

    /// The operation `method` on `segments` (a path split at `/`, percent-decoded) is for, with its `{id}`.
    /// `pathMatched` tells a wrong method (405) from an unknown path (404).
    static func match(method: String, segments: [String]) -> (operation: AppStoreConnectOperation?, id: String?, pathMatched: Bool) {
        var pathMatched = false
        for operation in allCases {
            let template = operation.pathTemplate.split(separator: "/").map(String.init)
            guard template.count == segments.count else { continue }
            var id: String?
            let fits = zip(template, segments).allSatisfy { expected, actual in
                if expected == "{id}" {
                    id = actual
                    return !actual.isEmpty
                }
                return expected == actual
            }
            guard fits else { continue }
            pathMatched = true
            if operation.method == method { return (operation, id, true) }
        }
        return (nil, nil, pathMatched)
    }
}
