import Foundation
import Testing

@testable import ReleaseVersioning

extension VersioningTests {
    @Suite struct BuildNumberStrategyTests {
        private func resolve(_ text: String, builds: [String] = ["4146", "4145"], environment: [String: String] = [:]) async throws -> String? {
            try await BuildNumberStrategy(parsing: text).resolve(
                currentBuilds: builds, environment: environment,
                now: Date(timeIntervalSince1970: 1_413_957_678),  // 2014-10-22T06:01:18Z
                commitCount: { 4321 }
            )
        }

        @Test func strategies() async throws {
            #expect(try await resolve("increment") == "4147")
            #expect(try await resolve("increment", builds: ["9", "10", "1.2.9"]) == "11")
            #expect(try await resolve("increment", builds: ["1.2.9"]) == "1.2.10")
            #expect(try await resolve("increment", builds: []) == "1")
            #expect(try await resolve("git-count") == "4321")
            #expect(try await resolve("timestamp") == "201410220601")
            #expect(try await resolve("keep") == nil)
            #expect(try await resolve("4321") == "4321")
            #expect(try await resolve("env:BUILD_NUMBER", environment: ["BUILD_NUMBER": "77"]) == "77")
            // Pocket Casts builds carry the version: four groups, taken and incremented as written.
            #expect(try await resolve("7.75.0.3") == "7.75.0.3")
            #expect(try await resolve("increment", builds: ["7.75.0.3"]) == "7.75.0.4")
            #expect(BuildNumberStrategy.isBuildNumber("7.75.0.0"))
            #expect(!BuildNumberStrategy.isBuildNumber("1.2.3.4.5"))
        }

        @Test func errors() async throws {
            #expect(throws: VersioningError.invalidBuildNumber("12a", context: nil)) { try BuildNumberStrategy(parsing: "12a") }
            await #expect(throws: VersioningError.buildStrategy("environment variable 'CI_BUILD' is not set (build strategy 'env:CI_BUILD')")) {
                _ = try await resolve("env:CI_BUILD")
            }
            await #expect(throws: VersioningError.invalidBuildNumber("abc", context: "environment variable 'B'")) {
                _ = try await resolve("env:B", environment: ["B": "abc"])
            }
            await #expect(throws: VersioningError.self) { _ = try await resolve("increment", builds: ["$(BUILD)"]) }
        }
    }
}
