import Foundation
import Rehearsal
import Testing

/// The project's own record of the App Store Connect request bodies it sends
/// (`Fixtures/AppStoreConnect/request-shapes.json`), which the tests check requests against on a clone without
/// Apple's contract: it agrees with the contract wherever the contract is there, covers every operation the
/// stand-in routes that takes a body, and its checker catches wrong shapes.
@Suite struct AppStoreConnectRequestShapesTests {
    /// A difference prints the record the contract gives, to paste into the fixture after a contract update.
    @Test(.needsShared(.appStoreConnect)) func theRecordIsWhatTheContractSays() throws {
        let contract = try #require(AppStoreConnectContract.shared, "\(AppStoreConnectContract.missing)")
        let derived = contract.requestShapes()
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try JSONSerialization.data(withJSONObject: derived, options: options)
        let recorded = try JSONSerialization.data(withJSONObject: AppStoreConnectContract.requestShapes.value, options: options)
        #expect(derived.count == 31)
        #expect(
            recorded == expected,
            "Fixtures/AppStoreConnect/request-shapes.json differs from the contract, which says:\n\(String(decoding: expected, as: UTF8.self))")
    }

    @Test func theRecordCoversEveryWriteTheStandInRoutes() {
        let writes = AppStoreConnectOperation.allCases.filter { $0.method == "POST" || $0.method == "PATCH" }
        #expect(writes.count > 10)
        for operation in writes {
            #expect(AppStoreConnectContract.requestShapes.value[operation.rawValue] != nil, "\(operation.rawValue)")
        }
    }

    @Test func wrongShapesAreLocated() {
        func problems(_ operation: String, _ body: String?) -> [String] {
            AppStoreConnectContract.validateRequestShape(operationId: operation, body: body.map { Data($0.utf8) }).map(\.description)
        }
        let valid = #"""
            {"data": {"type": "buildUploads", "attributes": {"cfBundleShortVersionString": "1.0", "cfBundleVersion": "1", "platform": "IOS"},
              "relationships": {"app": {"data": {"type": "apps", "id": "1"}}}}}
            """#
        #expect(problems("buildUploads_createInstance", valid) == [])
        #expect(
            problems("buildUploads_createInstance", valid.replacingOccurrences(of: #", "platform": "IOS""#, with: "")) == [
                "$.data.attributes.platform: is required"
            ])
        #expect(
            problems("buildUploads_createInstance", valid.replacingOccurrences(of: #""platform""#, with: #""platfrom""#)) == [
                "$.data.attributes.platform: is required", #"$.data.attributes.platfrom: is not declared by the schema (value "IOS")"#,
            ])
        #expect(
            problems("buildUploads_createInstance", valid.replacingOccurrences(of: #""type": "buildUploads""#, with: #""type": "builds""#)) == [
                #"$.data.type: is not one of buildUploads (value "builds")"#
            ])
        #expect(problems("buildUploads_createInstance", nil) == ["$: a body is required"])
        #expect(problems("betaGroups_builds_createToManyRelationship", #"{"data": [{"type": "builds", "id": "1"}]}"#) == [])
        #expect(
            problems("betaGroups_builds_createToManyRelationship", #"{"data": {"type": "builds", "id": "1"}}"#) == [
                #"$.data: is not of type array (value {"id":"1","type":"builds"})"#
            ])
        #expect(problems("builds_getCollection", nil) == [])
        #expect(problems("builds_getCollection", "{}") == ["$: no request body is recorded for builds_getCollection, but there is one (value \"{}\")"])
    }
}
