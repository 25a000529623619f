import Foundation
import Testing

@testable import ReleaseVersioning

/// An xcconfig `#include` can name any file on the machine (`"/…"`, `"../../…"`, a symbolic link): when that file
/// is not an xcconfig, the error names it and its line but never quotes it, since it may be a private key.
@Suite struct ForeignIncludeTests {
    static let key = "-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgRk9SVEVTVElOR09O\n-----END PRIVATE KEY-----\n"

    /// A repository (a folder with `.git`) whose `Config/App.xcconfig` includes `target`, and a key file outside it.
    static func fixture(include target: (_ keyPath: String, _ keyFolder: String) -> String) throws -> (repository: String, key: String) {
        let outside = try XcodeFixture.folder(with: ["key.pem": key])
        let keyPath = outside + "/key.pem"
        let repository = try XcodeFixture.folder(with: [
            ".git/HEAD": "ref: refs/heads/main\n",
            "Config/App.xcconfig": "MARKETING_VERSION = 1.0\n#include \"\(target(keyPath, outside))\"\n",
        ])
        return (repository, keyPath)
    }

    static func message(loading path: String) -> String? {
        do {
            _ = try XCConfigFile(contentsOf: path)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: ["absolute", "relative", "symbolic link"])
    func anIncludedFileOutsideTheRepositoryIsNeverQuoted(_ how: String) throws {
        let (repository, keyPath) = try Self.fixture { keyPath, folder in
            switch how {
            case "absolute": return keyPath
            case "relative": return "../../" + (folder as NSString).lastPathComponent + "/key.pem"
            default: return "Linked.xcconfig"
            }
        }
        if how == "symbolic link" {
            try FileManager.default.createSymbolicLink(atPath: repository + "/Config/Linked.xcconfig", withDestinationPath: keyPath)
        }
        let message = try #require(Self.message(loading: repository + "/Config/App.xcconfig"))
        #expect(!message.contains("BEGIN") && !message.contains("MIGT"), "\(message)")
        #expect(
            message.hasSuffix(
                ":1: not an xcconfig line (the file is outside '\(XCConfigFile.repository(of: repository + "/Config/App.xcconfig"))', so its contents are not shown)"),
            "\(message)")
        // The error names the file as the include reached it: the key itself, or the link to it.
        let named = how == "symbolic link" ? repository + "/Config/Linked.xcconfig" : keyPath
        #expect(message.hasPrefix(named + ":1: "), "the error names the file: \(message)")
    }

    /// Inside the repository (here through `../` from a sub-folder), an error still quotes the line that is wrong.
    @Test func aFileInsideTheRepositoryIsQuotedAsBefore() throws {
        let repository = try XcodeFixture.folder(with: [
            ".git/HEAD": "ref: refs/heads/main\n",
            "Config/App.xcconfig": "#include \"../Shared/Base.xcconfig\"\n",
            "Shared/Base.xcconfig": "A = 1\nthis is not a setting\n",
        ])
        #expect(
            throws: VersioningError.syntax(
                file: repository + "/Shared/Base.xcconfig", line: 2,
                message: "expected '=' after 'this', found 'this is not a setting'")
        ) {
            _ = try XCConfigFile(contentsOf: repository + "/Config/App.xcconfig")
        }
    }
}
