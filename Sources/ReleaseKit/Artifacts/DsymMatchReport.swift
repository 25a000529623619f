/// Which binary slices have a dSYM with their UUID, architecture by architecture.
package struct DsymMatchReport: Sendable, Equatable, Codable {
    /// The outcome for one architecture of one binary.
    package enum Verdict: String, Sendable, Codable {
        /// A dSYM slice has the binary slice's UUID.
        case matched
        /// The binary's dSYM exists but none of its slices has this UUID (the binary was rebuilt after it).
        case mismatched
        /// No dSYM describes this binary.
        case missing
        /// The binary slice has no `LC_UUID`, so nothing can match it.
        case noUUID = "no-uuid"
    }

    /// One architecture of one binary and its verdict.
    package struct SliceVerdict: Sendable, Equatable, Codable {
        package var binary: String
        package var architecture: String
        package var uuid: String?
        package var verdict: Verdict
        /// The DWARF file that matched, or the binary's dSYM that did not.
        package var dsym: String?
        /// That DWARF file's UUID for this architecture.
        package var dsymUUID: String?

        package init(binary: String, architecture: String, uuid: String?, verdict: Verdict, dsym: String?, dsymUUID: String?) {
            self.binary = binary
            self.architecture = architecture
            self.uuid = uuid
            self.verdict = verdict
            self.dsym = dsym
            self.dsymUUID = dsymUUID
        }

        private enum CodingKeys: String, CodingKey {
            case binary, architecture, uuid, verdict, dsym
            case dsymUUID = "dsym_uuid"
        }

        /// The problem this verdict is, for a gate; nil when matched.
        package var problem: String? {
            let uuidText = uuid ?? "none"
            switch verdict {
            case .matched:
                return nil
            case .mismatched:
                return "binary '\(binary)' (\(architecture)) has uuid '\(uuidText)' but its dSYM '\(dsym ?? "?")' has uuid '\(dsymUUID ?? "none")'"
            case .missing:
                return "binary '\(binary)' (\(architecture)) uuid '\(uuidText)': no dSYM"
            case .noUUID:
                return "binary '\(binary)' (\(architecture)) has no LC_UUID: crash reports cannot be matched to a dSYM"
            }
        }
    }

    /// A dSYM slice whose UUID no binary has.
    package struct DsymSlice: Sendable, Equatable, Codable {
        package var dsym: String
        package var architecture: String
        package var uuid: String?

        package init(dsym: String, architecture: String, uuid: String?) {
            self.dsym = dsym
            self.architecture = architecture
            self.uuid = uuid
        }
    }

    /// Every slice of every binary, in binary then file order.
    package var slices: [SliceVerdict]
    /// dSYM slices that match no binary slice (stale or foreign dSYMs).
    package var unmatchedDsymSlices: [DsymSlice]

    package init(slices: [SliceVerdict], unmatchedDsymSlices: [DsymSlice]) {
        self.slices = slices
        self.unmatchedDsymSlices = unmatchedDsymSlices
    }

    /// Binaries with no matched slice at all.
    package var binariesWithoutDsym: [String] {
        var seen: [String] = []
        for slice in slices where !seen.contains(slice.binary) {
            if !slices.contains(where: { $0.binary == slice.binary && $0.verdict == .matched }) { seen.append(slice.binary) }
        }
        return seen
    }

    /// Every binary slice without a dSYM of its UUID, one sentence each.
    package var problems: [String] { slices.compactMap(\.problem) }

    /// Whether every slice of every binary has its dSYM.
    package var isComplete: Bool { slices.allSatisfy { $0.verdict == .matched } }

    private enum CodingKeys: String, CodingKey {
        case slices
        case unmatchedDsymSlices = "unmatched_dsym_slices"
        case binariesWithoutDsym = "binaries_without_dsym"
        case problems
        case complete
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        slices = try container.decode([SliceVerdict].self, forKey: .slices)
        unmatchedDsymSlices = try container.decode([DsymSlice].self, forKey: .unmatchedDsymSlices)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(slices, forKey: .slices)
        try container.encode(unmatchedDsymSlices, forKey: .unmatchedDsymSlices)
        try container.encode(binariesWithoutDsym, forKey: .binariesWithoutDsym)
        try container.encode(problems, forKey: .problems)
        try container.encode(isComplete, forKey: .complete)
    }
}
