import Foundation
import ReleaseTestSupport
import Testing

@testable import ReleaseSupport

/// Paths are joined and normalised lexically, and the working directory is made canonical once: a folder reached
/// through a symlink (a Mac's `/var` → `/private/var`) has one spelling whether or not a file exists there yet.
@Suite struct FilePathArithmeticTests {
    @Test(arguments: [
        ("/a/./b//../c/", "/a/c"), ("/..", "/"), ("/../a", "/a"), ("/", "/"), ("//", "/"), ("a/../..", ".."),
        ("", "."), (".", "."), ("./a/", "a"), ("a/b/../../c", "c"), ("../../a", "../../a"), ("/a/b/..", "/a"),
        ("/private/var/folders/x", "/private/var/folders/x"),
    ])
    func normalisedWithoutTheFileSystem(path: String, expected: String) {
        #expect(FilePath.normalized(path) == expected)
    }

    @Test func relativePathsJoinTheirDirectoryAndAbsoluteOnesIgnoreIt() {
        #expect(FilePath.absolute("b/../c", in: "/a") == "/a/c")
        #expect(FilePath.absolute("/x/./y", in: "/a") == "/x/y")
        #expect(FilePath.absolute("../..", in: "/a") == "/")
        #expect(FilePath.relative("/a/b/c", to: "/a/") == "b/c")
        #expect(FilePath.relative("/a", to: "/a") == ".")
        #expect(FilePath.relative("/ab/c", to: "/a") == nil)
        #expect(FilePath.relative("/a/b", to: "/") == "a/b")
    }

    /// The Mac's case, made here: `link` → `real`. A path through the link keeps its spelling whether its file
    /// exists or not and whatever `..` it has (Foundation's `standardizedFileURL` changes it in both cases), and
    /// the canonical spelling is the physical one.
    @Test func aFolderReachedThroughASymlinkKeepsOneSpelling() throws {
        let base = TestTemporary.root + "/release-filepath-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/real/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real/sub")
        let link = base + "/link"
        let before = FilePath.absolute("journal.json", in: link)
        FileManager.default.createFile(atPath: base + "/real/sub/journal.json", contents: Data())
        #expect(FilePath.absolute("journal.json", in: link) == before)
        #expect(before == link + "/journal.json")
        // Lexical `..`: the link's parent, not the target's.
        #expect(FilePath.absolute("../x", in: link) == base + "/x")
        let canonicalBase = try #require(Platform.canonicalPath(base))
        #expect(Platform.canonicalPath(link) == canonicalBase + "/real/sub")
        #expect(Platform.canonicalPath(link + "/missing") == nil)
    }

    @Test func theWorkingDirectoryIsCanonical() throws {
        let directory = Platform.currentDirectory()
        #expect(directory.hasPrefix("/"))
        #expect(Platform.canonicalPath(directory) == directory)
    }
}
