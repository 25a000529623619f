import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    @Suite struct SemanticVersionTests {
        @Test(arguments: [
            ("3.0.0", [3, 0, 0], nil as String?),
            ("3.0", [3, 0], nil),
            ("3", [3], nil),
            ("7.1.3b5", [7, 1, 3], "b5"),
            ("2.0.0-beta.1", [2, 0, 0], "-beta.1"),
            ("1.2.3.4", [1, 2, 3, 4], nil),
        ])
        func parses(text: String, components: [Int], prerelease: String?) throws {
            let version = try #require(SemanticVersion(text))
            #expect(version.components == components)
            #expect(version.prerelease == prerelease)
            #expect(version.description == text)
        }

        @Test(arguments: ["", "v3.0.0", "3.", "3..0", ".3", "3.0.0 ", "1.2.3.4.5", "3.0-", "abc", "3.0.0+4146"])
        func rejects(text: String) {
            #expect(SemanticVersion(text) == nil)
        }

        @Test func parseErrorNamesTheLocation() {
            #expect(throws: VersioningError.invalidVersion("three", context: "Demo.xcodeproj/project.pbxproj:12")) {
                try SemanticVersion.parse("three", context: "Demo.xcodeproj/project.pbxproj:12")
            }
            #expect(VersioningError.invalidVersion("three", context: "a.xcconfig:3").description.hasPrefix("a.xcconfig:3: invalid version 'three'"))
        }

        @Test func comparesNumerically() throws {
            func v(_ text: String) throws -> SemanticVersion { try #require(SemanticVersion(text)) }
            #expect(try v("3.10.0") > v("3.9.0"))
            #expect(try v("10.0") > v("9.9.9"))
            #expect(try v("3.0") == v("3.0.0"))
            #expect(try !v("3.0").isIdentical(to: v("3.0.0")))
            #expect(try v("7.1.3b5") < v("7.1.3"))
            #expect(try v("7.1.3b5") < v("7.1.3b10"))
            #expect(try v("7.1.3a9") < v("7.1.3b1"))
            #expect(try v("7.1.3") < v("7.1.4b1"))
            #expect(try [v("3.9.0"), v("3.10.0"), v("3.2")].max() == v("3.10.0"))
        }

        @Test(arguments: [
            ("3.0.0", "major", "4.0.0"), ("3.0.0", "minor", "3.1.0"), ("3.0.0", "patch", "3.0.1"),
            ("3.2", "major", "4.0"), ("3.2", "minor", "3.3"), ("3.2", "patch", "3.2.1"),
            ("3", "major", "4"), ("3", "minor", "3.1"), ("3", "patch", "3.0.1"),
            ("3.9.9", "minor", "3.10.0"),
            ("7.1.3b5", "patch", "7.1.3"), ("7.1.3b5", "minor", "7.2.0"), ("7.1.3b5", "major", "8.0.0"),
            // Calendar versions keep their zero-padded month (Element X ships 26.07.5).
            ("26.07.4", "patch", "26.07.5"), ("26.07.5", "minor", "26.08.0"), ("26.09.2", "minor", "26.10.0"),
            ("7.75", "minor", "7.76"), ("2.6", "patch", "2.6.1"),
        ])
        func bumps(current: String, part: String, expected: String) throws {
            let version = try #require(SemanticVersion(current))
            let bumped = version.bumped(try #require(SemanticVersion.Part(rawValue: part)))
            #expect(bumped.description == expected)
        }

        /// Versions are written as the user and the project write them, never normalised.
        @Test(arguments: ["26.07.5", "26.07.0", "7.75", "3.12", "2.6", "1", "1.0", "12.10.0"])
        func keepsTheShapeAsWritten(text: String) throws {
            let choice = try VersionChoice(parsing: text)
            guard case .exact(let version) = choice else { throw VersioningError.invalidVersion(text, context: nil) }
            #expect(version.description == text)
            #expect(choice.description == text)
        }

        @Test func versionChoiceParsing() throws {
            #expect(try VersionChoice(parsing: "major") == .part(.major))
            #expect(try VersionChoice(parsing: "build") == .keep)
            #expect(try VersionChoice(parsing: "7.1.3b5") == .exact(#require(SemanticVersion("7.1.3b5"))))
            #expect(throws: VersioningError.invalidVersion("huge", context: nil)) { try VersionChoice(parsing: "huge") }
        }
    }
}
