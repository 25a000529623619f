import Foundation

/// The UUID manifest `dsym.package` writes beside its zip: one row per slice of every DWARF file, so a crash
/// reporter (or a person) can tell which dSYM serves which build without unzipping it.
package struct DsymManifest: Sendable, Equatable, Codable {
    /// One slice of one DWARF file.
    package struct Entry: Sendable, Equatable, Codable {
        /// The dSYM bundle's name (`Demo.app.dSYM`).
        package var bundle: String
        /// The DWARF file's name: the binary it describes (`Demo`).
        package var binary: String
        /// The slice's architecture (`arm64`).
        package var arch: String
        /// The slice's UUID, as `llvm-dwarfdump --uuid` prints it.
        package var uuid: String

        package init(bundle: String, binary: String, arch: String, uuid: String) {
            self.bundle = bundle
            self.binary = binary
            self.arch = arch
            self.uuid = uuid
        }
    }

    /// Every packaged slice.
    package var dsyms: [Entry]

    package init(dsyms: [Entry]) {
        self.dsyms = dsyms
    }

    /// The manifest of `dsyms`, sorted by bundle, binary and architecture; slices without a UUID are left out.
    package init(describing dsyms: [DsymBinary]) {
        var entries: [Entry] = []
        for dsym in dsyms {
            let bundle = (dsym.bundle as NSString).lastPathComponent
            for slice in dsym.slices {
                guard let uuid = slice.uuid else { continue }
                entries.append(Entry(bundle: bundle, binary: dsym.name, arch: slice.architecture, uuid: uuid))
            }
        }
        self.dsyms = entries.sorted { ($0.bundle, $0.binary, $0.arch) < ($1.bundle, $1.binary, $1.arch) }
    }

    /// Pretty-printed JSON with sorted keys and a final newline.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
