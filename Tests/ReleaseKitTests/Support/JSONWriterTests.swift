import Foundation
import Testing

@testable import ReleaseSupport

@Suite struct JSONWriterTests {
    @Test func sortsKeysByTheirBytesAndKeepsScalarsTyped() throws {
        let object: [String: Any] = [
            "b": [1, 2.5, true, "x/y"] as [Any], "a": NSNull(), "B": false, "$schema": "s", "count": Int64(3), "ratio": 2.0,
        ]
        #expect(JSONWriter.text(object) == #"{"$schema":"s","B":false,"a":null,"b":[1,2.5,true,"x/y"],"count":3,"ratio":2}"#)
    }

    @Test func prettyIndentsByTwoWithSpacedColonsAndKeepsEmptyContainersOnOneLine() {
        let object: [String: Any] = ["list": [] as [Any], "map": [:] as [String: Any], "nested": ["k": [1]] as [String: Any]]
        #expect(
            JSONWriter.text(object, pretty: true) == """
                {
                  "list" : [],
                  "map" : {},
                  "nested" : {
                    "k" : [
                      1
                    ]
                  }
                }
                """)
    }

    @Test func numbersFromJSONSerializationKeepTheirType() throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(#"[false, true, 7, 0.25]"#.utf8))
        #expect(JSONWriter.text(parsed) == "[false,true,7,0.25]")
    }

    @Test func escapesStringsAndRefusesWhatIsNotJSON() {
        #expect(JSONWriter.text(["k\"ey": "line\nbreak\u{1}é"]) == #"{"k\"ey":"line\nbreak\u0001é"}"#)
        #expect(JSONWriter.text(["x": Double.nan]) == nil)
        #expect(JSONWriter.text(["x": Double.infinity]) == nil)
        #expect(JSONWriter.text(["x": Date()]) == nil)
        #expect(JSONWriter.text("fragment") == #""fragment""#)
    }

    @Test func matchesJSONSerializationOnWhatTheReportsWrite() throws {
        let object: [String: Any] = ["steps": [["id": "a", "outputs": ["stdout": "hi", "exit_code": 0]]], "dry_run": false]
        let ours = try #require(JSONWriter.data(object, pretty: true))
        let foundation = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        #expect(ours == foundation)
    }
}
