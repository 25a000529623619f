/// Matches binary slices to dSYM slices by UUID.
package enum DsymMatcher {
    /// The verdict for every slice of `binaries` against `dsyms`.
    ///
    /// A slice matches when any dSYM slice has its UUID. When none does, the binary's own dSYM (a DWARF file
    /// with the binary's name, preferably in `<bundle>.dSYM`, with a slice of the same architecture) is named
    /// with its UUID, so the problem says what was expected and what was found.
    package static func match(binaries: [BundleBinary], dsyms: [DsymBinary]) -> DsymMatchReport {
        var byUUID: [String: (dsym: DsymBinary, slice: MachOSlice)] = [:]
        for dsym in dsyms {
            for slice in dsym.slices {
                if let uuid = slice.uuid, byUUID[uuid] == nil { byUUID[uuid] = (dsym, slice) }
            }
        }
        var used: Set<String> = []
        var verdicts: [DsymMatchReport.SliceVerdict] = []
        for binary in binaries {
            for slice in binary.slices {
                guard let uuid = slice.uuid else {
                    verdicts.append(.init(binary: binary.path, architecture: slice.architecture, uuid: nil, verdict: .noUUID, dsym: nil, dsymUUID: nil))
                    continue
                }
                if let found = byUUID[uuid] {
                    used.insert(uuid)
                    verdicts.append(.init(binary: binary.path, architecture: slice.architecture, uuid: uuid, verdict: .matched, dsym: found.dsym.path, dsymUUID: uuid))
                } else if let own = ownDsym(of: binary, architecture: slice.architecture, in: dsyms) {
                    verdicts.append(.init(binary: binary.path, architecture: slice.architecture, uuid: uuid, verdict: .mismatched, dsym: own.dsym.path, dsymUUID: own.slice.uuid))
                } else {
                    verdicts.append(.init(binary: binary.path, architecture: slice.architecture, uuid: uuid, verdict: .missing, dsym: nil, dsymUUID: nil))
                }
            }
        }
        var unmatched: [DsymMatchReport.DsymSlice] = []
        for dsym in dsyms {
            for slice in dsym.slices where slice.uuid.map({ !used.contains($0) }) ?? true {
                unmatched.append(.init(dsym: dsym.path, architecture: slice.architecture, uuid: slice.uuid))
            }
        }
        return DsymMatchReport(slices: verdicts, unmatchedDsymSlices: unmatched)
    }

    private static func ownDsym(of binary: BundleBinary, architecture: String, in dsyms: [DsymBinary]) -> (dsym: DsymBinary, slice: MachOSlice)? {
        let bundleName = binary.bundle.split(separator: "/").last.map(String.init) ?? binary.name
        let candidates = dsyms.filter { $0.name == binary.name }
        let preferred = candidates.filter { ($0.bundle.split(separator: "/").last.map(String.init) ?? "") == bundleName + ".dSYM" }
        for dsym in preferred + candidates {
            if let slice = dsym.slice(architecture) { return (dsym, slice) }
        }
        return nil
    }
}
