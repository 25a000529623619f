/// One architecture of a Mach-O file: the whole file when it is thin, one slice of a fat file.
package struct MachOSlice: Sendable, Equatable, Hashable, Codable {
    /// `arm64`, `x86_64`, `armv7s`, …
    package var architecture: String
    /// `cputype` from the header (`CPU_TYPE_ARM64` is `0x0100000C`).
    package var cpuType: Int32
    /// `cpusubtype`, capability bits included.
    package var cpuSubtype: Int32
    /// `execute`, `dylib`, `bundle`, `dsym`, `object`, …
    package var fileType: String
    /// The `LC_UUID`, upper-case with dashes as `llvm-dwarfdump --uuid` prints it; nil when the slice has none.
    package var uuid: String?
    /// Where the slice starts in the file (0 for a thin file).
    package var offset: Int64
    /// Whether the slice is 64-bit (`mach_header_64`).
    package var is64Bit: Bool

    package init(architecture: String, cpuType: Int32, cpuSubtype: Int32, fileType: String, uuid: String?, offset: Int64, is64Bit: Bool) {
        self.architecture = architecture
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype
        self.fileType = fileType
        self.uuid = uuid
        self.offset = offset
        self.is64Bit = is64Bit
    }

    private enum CodingKeys: String, CodingKey {
        case architecture, uuid, offset
        case cpuType = "cpu_type"
        case cpuSubtype = "cpu_subtype"
        case fileType = "file_type"
        case is64Bit = "is_64_bit"
    }
}
