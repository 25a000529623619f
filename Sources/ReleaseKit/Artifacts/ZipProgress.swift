/// How far a zip has got.
package struct ZipProgress: Sendable, Equatable {
    /// File bytes read and compressed so far.
    package var bytesDone: Int64
    /// File bytes in the whole tree.
    package var bytesTotal: Int64
    /// Entries written so far.
    package var entriesDone: Int
    /// Entries in the whole tree.
    package var entriesTotal: Int

    package init(bytesDone: Int64, bytesTotal: Int64, entriesDone: Int, entriesTotal: Int) {
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.entriesDone = entriesDone
        self.entriesTotal = entriesTotal
    }
}
