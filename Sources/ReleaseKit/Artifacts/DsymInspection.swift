/// The binaries and dSYMs found at a path, and, for apps and archives, which match. Encoded (for
/// `release dsym --json`) with snake_case keys, like every Artifacts type.
package struct DsymInspection: Sendable, Equatable, Codable {
    /// The path inspected, absolute.
    package var path: String
    /// What the path turned out to be.
    package var kind: InspectedKind
    /// Executables found, with their slices; paths relative to ``root``.
    package var binaries: [BundleBinary]
    /// DWARF files of the dSYMs found; paths relative to ``root``.
    package var dsyms: [DsymBinary]
    /// The folder (or zip) the relative paths start from.
    package var root: String
    /// Verdicts, for apps, frameworks, archives, ipas, zips and folders, and for a lone binary with its
    /// `<name>.dSYM` beside it or paired with dSYMs given with it; nil otherwise.
    package var report: DsymMatchReport?
    /// Files inside dSYMs that could not be read (not Mach-O, empty, damaged) and were skipped, one sentence
    /// each; nil when there are none.
    package var warnings: [String]?

    package init(
        path: String, kind: InspectedKind, root: String, binaries: [BundleBinary], dsyms: [DsymBinary], report: DsymMatchReport?,
        warnings: [String] = []
    ) {
        self.path = path
        self.kind = kind
        self.root = root
        self.binaries = binaries
        self.dsyms = dsyms
        self.report = report
        self.warnings = warnings.isEmpty ? nil : warnings
    }
}
