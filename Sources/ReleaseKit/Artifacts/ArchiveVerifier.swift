import Foundation
import ReleaseSupport

/// Re-reads a zip through libarchive and compares it with the tree it was made from: entry count, kinds,
/// sizes, permissions, link targets and CRC-32s of the data (libarchive also checks each entry's data
/// against the CRC stored in the zip).
package enum ArchiveVerifier {
    /// Compares `zip` with what zipping `sources` (minus `exclude`) would store. Blocking.
    /// - Returns: every difference found, not just the first.
    /// - Throws: ``ArchiveError`` when the sources cannot be listed; `CancellationError`.
    package static func verify(
        zip: String, sources: [String], exclude: [String] = [], isCancelled: () -> Bool = { false }
    ) throws -> ArchiveVerification {
        let zipPath = ZipWriter.absolute(zip)
        let expectedList = try ZipSourceTree.scan(sources: sources.map(ZipWriter.absolute), exclude: exclude, skipping: [zipPath])
        var expected: [String: ZipSourceEntry] = [:]
        for entry in expectedList { expected[trimmed(entry.entryName)] = entry }

        var problems: [String] = []
        var seen: Set<String> = []
        var count = 0
        do {
            let reader = try ZipReader(path: zipPath)
            while let entry = try reader.next() {
                if isCancelled() { throw CancellationError() }
                count += 1
                guard seen.insert(entry.path).inserted else {
                    problems.append("entry '\(entry.path)' appears twice")
                    continue
                }
                guard let source = expected[entry.path] else {
                    problems.append("entry '\(entry.path)' is not in the source tree")
                    continue
                }
                problems += compare(entry, source, reader: reader)
            }
        } catch let error as ArchiveError {
            problems.append("cannot read '\(zipPath)': \(error)")
        }
        for entry in expectedList where !seen.contains(trimmed(entry.entryName)) {
            problems.append("entry '\(trimmed(entry.entryName))' is missing from the zip")
        }
        if count != expectedList.count {
            problems.insert("zip has \(count) entries, the source tree \(expectedList.count)", at: 0)
        }
        return ArchiveVerification(entries: count, expectedEntries: expectedList.count, problems: problems)
    }

    /// Same, on a thread of its own; cancelling the task stops it.
    package static func verify(zip: String, sources: [String], exclude: [String] = []) async throws -> ArchiveVerification {
        try await BlockingWork.run { flag in
            try verify(zip: zip, sources: sources, exclude: exclude, isCancelled: { flag.isCancelled })
        }
    }

    private static func compare(_ entry: ZipEntry, _ source: ZipSourceEntry, reader: ZipReader) -> [String] {
        let name = entry.path
        let sourceKind: ZipEntry.Kind
        var target: String?
        switch source.kind {
        case .file: sourceKind = .file
        case .directory: sourceKind = .directory
        case .symlink(let link): sourceKind = .symlink; target = link
        }
        guard entry.kind == sourceKind else {
            return ["entry '\(name)' is a \(entry.kind.rawValue) in the zip but a \(sourceKind.rawValue) in the source tree"]
        }
        var problems: [String] = []
        let permissions = source.mode & 0o7777
        if sourceKind != .symlink && entry.permissions != permissions {
            problems.append("entry '\(name)' has mode '\(octal(entry.permissions))', the source '\(octal(permissions))'")
        }
        switch sourceKind {
        case .symlink:
            if entry.symlinkTarget != target {
                problems.append("link '\(name)' points to '\(entry.symlinkTarget ?? "")', the source to '\(target ?? "")'")
            }
        case .file:
            if entry.size != source.size {
                problems.append("entry '\(name)' has \(entry.size) bytes, the source \(source.size)")
            }
            var zipped = CRC32()
            var size: Int64 = 0
            do {
                try reader.readData { chunk in
                    zipped.update(chunk)
                    size += Int64(chunk.count)
                }
            } catch {
                problems.append("entry '\(name)' is corrupt: \(error)")
                return problems
            }
            if size != entry.size {
                problems.append("entry '\(name)' holds \(size) bytes, its header says \(entry.size)")
            }
            switch crc(of: source.path) {
            case .success(let expected):
                if expected != zipped.value {
                    problems.append("entry '\(name)' has crc32 '\(Hex.digits(zipped.value))', the source '\(Hex.digits(expected))'")
                }
            case .failure(let error):
                problems.append("cannot read the source of '\(name)': \(error)")
            }
        default:
            break
        }
        return problems
    }

    private static func crc(of path: String) -> Result<UInt32, ArchiveError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.io(path: path, reason: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        var crc = CRC32()
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.io(path: path, reason: String(cString: strerror(errno))))
            }
            if count == 0 { return .success(crc.value) }
            crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    private static func trimmed(_ name: String) -> String {
        name.hasSuffix("/") ? String(name.dropLast()) : name
    }

    private static func octal(_ value: UInt32) -> String { "0" + String(value, radix: 8) }

}
