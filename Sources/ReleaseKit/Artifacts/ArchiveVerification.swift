/// What re-reading a zip against its source tree found.
package struct ArchiveVerification: Sendable, Equatable, Codable {
    /// Entries read from the zip.
    package var entries: Int
    /// Entries the source tree gives.
    package var expectedEntries: Int
    /// Every difference, one sentence each; empty when the zip is faithful.
    package var problems: [String]

    package init(entries: Int, expectedEntries: Int, problems: [String]) {
        self.entries = entries
        self.expectedEntries = expectedEntries
        self.problems = problems
    }

    private enum CodingKeys: String, CodingKey {
        case entries, problems
        case expectedEntries = "expected_entries"
    }

    /// Whether the zip holds exactly the tree.
    package var isFaithful: Bool { problems.isEmpty }
}
