/// A Mach-O executable of an app, framework or extension, with its slices.
package struct BundleBinary: Sendable, Equatable, Codable {
    /// The executable, relative to what was inspected (`Products/Applications/Demo.app/Demo`).
    package var path: String
    /// The bundle it belongs to (`Products/Applications/Demo.app`); the file itself for a lone binary.
    package var bundle: String
    /// The executable's file name (`Demo`), which is also its DWARF file's name in the dSYM.
    package var name: String
    /// What the binary is to the app.
    package var role: BinaryRole
    /// Its architectures and UUIDs.
    package var slices: [MachOSlice]

    package init(path: String, bundle: String, name: String, role: BinaryRole, slices: [MachOSlice]) {
        self.path = path
        self.bundle = bundle
        self.name = name
        self.role = role
        self.slices = slices
    }
}
