import ReleaseSupport

/// Why a Mach-O file could not be read. Messages name the file and quote the offending value.
package enum MachOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read: `(path, reason)`.
    case unreadable(path: String, reason: String)
    /// The first four bytes are no Mach-O or fat magic.
    case notMachO(path: String, magic: UInt32)
    /// The file ends before a structure it declares: `(path, what, offset, bytes needed)`.
    case truncated(path: String, what: String, offset: Int64, needed: Int)
    /// A structure holds an impossible value: `(path, explanation with the value)`.
    case malformed(path: String, detail: String)

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .notMachO(let path, let magic):
            return "'\(path)' is not a mach-o file (magic '0x\(Hex.digits(magic))')"
        case .truncated(let path, let what, let offset, let needed):
            return "'\(path)' is truncated: \(what) needs \(needed) bytes at offset \(offset)"
        case .malformed(let path, let detail):
            return "'\(path)' is malformed: \(detail)"
        }
    }
}
