/// A Mach-O file's slices, from its headers and load commands.
package struct MachOFile: Sendable, Equatable, Codable {
    /// The path it was read from (inside an `.ipa`: `App.ipa/Payload/…`).
    package var path: String
    /// Whether it is a fat (universal) file.
    package var isFat: Bool
    /// One per architecture, in the order the file lists them.
    package var slices: [MachOSlice]

    package init(path: String, isFat: Bool, slices: [MachOSlice]) {
        self.path = path
        self.isFat = isFat
        self.slices = slices
    }

    private enum CodingKeys: String, CodingKey {
        case path, slices
        case isFat = "is_fat"
    }

    /// The slice for `architecture`, if the file has it.
    package func slice(_ architecture: String) -> MachOSlice? {
        slices.first { $0.architecture == architecture }
    }
}
