import Foundation
import ReleaseSupport
import Synchronization

/// The parts of a reserved App Store Connect file that have been sent, kept beside the `.ipa`
/// (`.NAME.ipa.appstore-upload.json`) so a run that stops halfway, or a step retry, sends only what is missing.
///
/// The record names the reserved file and the `.ipa`'s size and modification time: a different reservation or a
/// changed `.ipa` makes it worthless, and it is ignored. App Store Connect's API does not say which parts it has,
/// so this is our own account; a commit that App Store Connect refuses for missing parts sends them all again.
final class UploadPartRecord: Sendable {
    private struct Contents: Codable, Equatable {
        var fileID: String
        var size: Int64
        var modified: Int
        var parts: [Int]
    }

    let path: String
    private let contents: Mutex<Contents>

    /// The record for `ipa` and the reserved file `fileID`: what an earlier run recorded, when it matches.
    init(ipa: String, fileID: String, size: Int64) {
        let directory = (ipa as NSString).deletingLastPathComponent
        path = (directory as NSString).appendingPathComponent("." + (ipa as NSString).lastPathComponent + ".appstore-upload.json")
        var info = stat()
        let modified = stat(ipa, &info) == 0 ? Platform.modificationTime(info) : 0
        let fresh = Contents(fileID: fileID, size: size, modified: modified, parts: [])
        if let data = FileManager.default.contents(atPath: path), let earlier = try? JSONDecoder().decode(Contents.self, from: data),
            earlier.fileID == fileID, earlier.size == size, earlier.modified == modified
        {
            contents = Mutex(earlier)
        } else {
            contents = Mutex(fresh)
        }
    }

    /// The part numbers recorded as sent.
    var sent: Set<Int> { Set(contents.withLock { $0.parts }) }

    /// Records part `number` as sent (written at once, atomically: the process may be stopped any time).
    func add(_ number: Int) {
        let data = contents.withLock { contents -> Data? in
            guard !contents.parts.contains(number) else { return nil }
            contents.parts.append(number)
            contents.parts.sort()
            return try? JSONEncoder().encode(contents)
        }
        if let data { try? AtomicFile.write(data, to: path) }
    }

    /// Forgets every part (they are sent again).
    func reset() {
        contents.withLock { $0.parts = [] }
        remove()
    }

    /// Removes the record: the file is committed.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
