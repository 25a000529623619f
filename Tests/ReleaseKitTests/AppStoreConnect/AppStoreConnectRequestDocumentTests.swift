import Foundation
import Rehearsal
import Testing

@testable import ReleaseAppStoreConnect
@testable import ReleaseSupport

/// The request documents both sides share, generated from Apple's contract (`Sources/ReleaseKit/AppStoreConnect/Generated`):
/// every write the stand-in routes has one, the stand-in refuses what the contract's type refuses with Apple's code at
/// the value, and the client writes them as it always has (keys sorted, slashes as they are, Apple's dates).
@Suite struct AppStoreConnectRequestDocumentTests {
    @Test func everyWriteTheStandInRoutesHasADocument() {
        let writes = AppStoreConnectOperation.allCases.filter { $0.method == "POST" || $0.method == "PATCH" }
        #expect(writes.count == 26)
        for operation in AppStoreConnectOperation.allCases {
            #expect((operation.requestDocument != nil) == writes.contains(operation), "\(operation.rawValue)")
        }
    }

    @Test func wrongShapesAreRefusedAtTheValue() {
        func problem(_ operation: AppStoreConnectOperation, _ body: String) -> String? {
            operation.requestProblem(Data(body.utf8))
        }
        let valid = #"""
            {"data": {"type": "buildUploads", "attributes": {"cfBundleShortVersionString": "1.0", "cfBundleVersion": "1", "platform": "IOS"},
              "relationships": {"app": {"data": {"type": "apps", "id": "1"}}}}}
            """#
        #expect(problem(.buildUploadsCreate, valid) == nil)
        #expect(
            problem(.buildUploadsCreate, valid.replacingOccurrences(of: #", "platform": "IOS""#, with: ""))
                == "ENTITY_ERROR.ATTRIBUTE.REQUIRED at /data/attributes/platform")
        #expect(
            problem(.buildUploadsCreate, valid.replacingOccurrences(of: #""IOS""#, with: #""ANDROID""#))
                == "ENTITY_ERROR.ATTRIBUTE.INVALID at /data/attributes/platform")
        #expect(
            problem(.buildUploadsCreate, valid.replacingOccurrences(of: #""cfBundleVersion": "1""#, with: #""cfBundleVersion": 1"#))
                == "ENTITY_ERROR.ATTRIBUTE.TYPE at /data/attributes/cfBundleVersion")
        #expect(
            problem(.buildUploadsCreate, valid.replacingOccurrences(of: #""type": "apps""#, with: #""type": "builds""#))
                == "ENTITY_ERROR.RELATIONSHIP.INVALID at /data/relationships/app/data/type")
        #expect(
            problem(.buildUploadsCreate, #"{"data": {"type": "buildUploads", "attributes": {}}}"#)
                == "ENTITY_ERROR.ATTRIBUTE.REQUIRED at /data/attributes/cfBundleShortVersionString")
        #expect(problem(.buildUploadsCreate, #"{"data": {"type": "builds"}}"#) == "ENTITY_ERROR.ATTRIBUTE.INVALID at /data/type")

        // `nullable` next to a `$ref`, as Apple writes sourceFileChecksums; an algorithm Apple does not take.
        #expect(problem(.buildUploadFilesUpdate, #"{"data": {"type": "buildUploadFiles", "id": "f", "attributes": {"uploaded": true, "sourceFileChecksums": null}}}"#) == nil)
        #expect(
            problem(
                .buildUploadFilesUpdate,
                #"{"data": {"type": "buildUploadFiles", "id": "f", "attributes": {"uploaded": true, "sourceFileChecksums": {"file": {"hash": "ab", "algorithm": "SHA1"}}}}}"#)
                == "ENTITY_ERROR.ATTRIBUTE.INVALID at /data/attributes/sourceFileChecksums/file/algorithm")
        // A linkage list: each item's type is the relationship's.
        #expect(problem(.buildAddBetaGroups, #"{"data": [{"type": "betaGroups", "id": "g"}]}"#) == nil)
        #expect(
            problem(.buildAddBetaGroups, #"{"data": [{"type": "betaGroups", "id": "g"}, {"type": "builds", "id": "b"}]}"#)
                == "ENTITY_ERROR.ATTRIBUTE.INVALID at /data/1/type")
        // An enumeration inside a list, and a date the contract types as a date-time.
        #expect(
            problem(
                .webhooksUpdate, #"{"data": {"type": "webhooks", "id": "w", "attributes": {"eventTypes": ["BUILD_UPLOAD_STATE_UPDATED", "BUILD_DONE"]}}}"#)
                == "ENTITY_ERROR.ATTRIBUTE.INVALID at /data/attributes/eventTypes/1")
        #expect(
            problem(.appStoreVersionsUpdate, #"{"data": {"type": "appStoreVersions", "id": "v", "attributes": {"earliestReleaseDate": "next week"}}}"#)
                == "ENTITY_ERROR.ATTRIBUTE.INVALID at /data/attributes/earliestReleaseDate")
    }

    /// The bytes on the wire: what `JSONWriter` wrote for the dictionaries these documents replace.
    @Test func theClientWritesTheDocumentsAsBefore() throws {
        let upload = Components.Schemas.BuildUploadCreateRequest(
            data: .init(
                _type: .buildUploads, attributes: .init(cfBundleShortVersionString: "1.2", cfBundleVersion: "7", platform: .ios),
                relationships: .init(app: .init(data: .init(_type: .apps, id: "6450000000")))))
        #expect(
            String(decoding: try AppStoreConnectClient.encode(upload), as: UTF8.self)
                == #"{"data":{"attributes":{"cfBundleShortVersionString":"1.2","cfBundleVersion":"7","platform":"IOS"},"relationships":{"app":{"data":{"id":"6450000000","type":"apps"}}},"type":"buildUploads"}}"#
        )
        let file = Components.Schemas.BuildUploadFileCreateRequest(
            data: .init(
                _type: .buildUploadFiles, attributes: .init(assetType: .asset, fileName: "App.ipa", fileSize: 4_000_000_000, uti: .com_apple_ipa),
                relationships: .init(buildUpload: .init(data: .init(_type: .buildUploads, id: "u")))))
        #expect(
            String(decoding: try AppStoreConnectClient.encode(file), as: UTF8.self)
                == #"{"data":{"attributes":{"assetType":"ASSET","fileName":"App.ipa","fileSize":4000000000,"uti":"com.apple.ipa"},"relationships":{"buildUpload":{"data":{"id":"u","type":"buildUploads"}}},"type":"buildUploadFiles"}}"#
        )
        let webhook = Components.Schemas.WebhookUpdateRequest(
            data: .init(
                _type: .webhooks, id: "w",
                attributes: .init(enabled: true, eventTypes: [.buildUploadStateUpdated], url: "https://ci.example.com/hooks/asc")))
        #expect(
            String(decoding: try AppStoreConnectClient.encode(webhook), as: UTF8.self)
                == #"{"data":{"attributes":{"enabled":true,"eventTypes":["BUILD_UPLOAD_STATE_UPDATED"],"url":"https://ci.example.com/hooks/asc"},"id":"w","type":"webhooks"}}"#
        )
        let version = Components.Schemas.AppStoreVersionUpdateRequest(
            data: .init(
                _type: .appStoreVersions, id: "v",
                attributes: .init(releaseType: .scheduled, earliestReleaseDate: Timestamp.parseISO8601("2026-12-01T10:00:00+02:00"))))
        #expect(
            String(decoding: try AppStoreConnectClient.encode(version), as: UTF8.self)
                == #"{"data":{"attributes":{"earliestReleaseDate":"2026-12-01T08:00:00Z","releaseType":"SCHEDULED"},"id":"v","type":"appStoreVersions"}}"#
        )
    }
}
