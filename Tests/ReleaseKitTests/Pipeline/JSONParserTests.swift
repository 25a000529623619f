import Testing

@testable import ReleasePipeline

@Suite struct JSONParserTests {
    @Test func parsesValuesWithTheirPositions() throws {
        let node = try JSONParser.parse("{\n  \"a\": [1, true, null],\n  \"é\": \"x\\u00e9\\n\"\n}")
        guard let members = node.members else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "é"])
        #expect(members[0].keyLocation == SourceLocation(line: 2, column: 3))
        #expect(members[0].value.location == SourceLocation(line: 2, column: 8))
        #expect(node["é"]?.string == "xé\n")
        #expect(node["é"]?.location == SourceLocation(line: 3, column: 8))
        if case .array(let items) = node["a"]?.value {
            #expect(items[0].value == .number(1, text: "1"))
            #expect(items[1].value == .bool(true))
            #expect(items[2].value == .null)
            #expect(items[2].location == SourceLocation(line: 2, column: 18))
        } else {
            Issue.record("a is not an array")
        }
    }

    @Test func keepsNumbersAsWritten() throws {
        let node = try JSONParser.parse("[4321, -1.5e3, 0.25]")
        #expect(node.jsonText == "[4321,-1.5e3,0.25]")
    }

    @Test func handlesSurrogatePairs() throws {
        #expect(try JSONParser.parse("\"\\ud83d\\ude80\"").string == "🚀")
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "trailing comma before '}'", 1, 9),
        ("[1, 2,]", "trailing comma before ']'", 1, 7),
        ("{\"a\" 1}", "expected ':' after key \"a\", found '1'", 1, 6),
        ("{\"a\": 1\n \"b\": 2}", "expected ',' or '}' after the value of \"a\", found '\"'", 2, 2),
        ("{'a': 1}", "expected '\"' to start a key, found '''", 1, 2),
        ("[01]", "numbers must not have leading zeros", 1, 3),
        ("\"abc", "unterminated string", 1, 5),
        ("[1] x", "unexpected 'x' after the end of the document", 1, 5),
        ("", "expected a value, found end of file", 1, 1),
        ("{\"a\": tru}", "expected a value, found 't'", 1, 7),
        ("// c\n{}", "comments are not allowed in JSON", 1, 1),
        ("\"a\\qb\"", "invalid escape '\\q' in string", 1, 4),
    ])
    func reportsSyntaxErrorsWithPositions(text: String, message: String, line: Int, column: Int) {
        #expect(throws: JSONParser.SyntaxError(message: message, location: SourceLocation(line: line, column: column))) {
            try JSONParser.parse(text)
        }
    }

    @Test func refusesAbsurdNesting() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(deep) }
    }
}
