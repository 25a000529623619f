import Foundation
import ReleaseTestSupport

@testable import ReleaseSupport

/// A fixture project under `Fixtures/Xcode`, copied to a temporary folder before anything writes to it.
struct XcodeFixture {
    static let root: String = {
        // Tests/ReleaseKitTests/Versioning/XcodeFixture.swift → package root.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let names = [
        "literal-plist", "pbxproj-per-target", "xcconfig-chain", "generated-plist", "binary-plist",
        "configurations-disagree", "many-places", "version-file", "real-world-traps", "xcodegen",
    ]

    let name: String
    var source: String { XcodeFixture.root + "/Fixtures/Xcode/" + name }
    var expected: String { source + "/expected" }

    /// A fresh copy of the fixture (without `expected`) in a temporary folder.
    func copy() throws -> String {
        let destination = TestTemporary.root + "/release-fixture-\(name)-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        try FileManager.default.removeItem(atPath: destination + "/expected")
        return destination
    }

    /// Every file under `folder`, relative, sorted, with its bytes.
    static func files(in folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = folder + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[relative] = FileManager.default.contents(atPath: path)
            }
        }
        return result
    }

    /// The bump the fixture's expected files were made with.
    struct Bump: Decodable {
        var choice: String
        var build: String
        var version: String
    }

    func bump() throws -> Bump {
        let data = try Data(contentsOf: URL(fileURLWithPath: expected + "/bump.json"))
        return try JSONDecoder().decode(Bump.self, from: data)
    }

    /// A new temporary folder holding `files` (relative path → text), folders created as needed.
    static func folder(with files: [String: String]) throws -> String {
        let folder = try temporaryDirectory()
        for (name, text) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(atPath: FilePath.parent(of: path), withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return folder
    }

    static func temporaryDirectory() throws -> String {
        let path = TestTemporary.root + "/release-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
