/// One DWARF file of a `.dSYM` bundle (`Contents/Resources/DWARF/NAME`), with its slices.
package struct DsymBinary: Sendable, Equatable, Codable {
    /// The DWARF file, relative to what was inspected.
    package var path: String
    /// The `.dSYM` bundle (`dSYMs/Demo.app.dSYM`).
    package var bundle: String
    /// The DWARF file's name: the name of the binary it describes.
    package var name: String
    /// Its architectures and UUIDs.
    package var slices: [MachOSlice]

    package init(path: String, bundle: String, name: String, slices: [MachOSlice]) {
        self.path = path
        self.bundle = bundle
        self.name = name
        self.slices = slices
    }

    /// The slice for `architecture`, if there is one.
    package func slice(_ architecture: String) -> MachOSlice? {
        slices.first { $0.architecture == architecture }
    }
}
