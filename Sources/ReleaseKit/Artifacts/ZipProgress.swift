/// How far a zip has got.
public struct ZipProgress: Sendable, Equatable {
    /// File bytes read and compressed so far.
    public var bytesDone: Int64
    /// File bytes in the whole tree.
    public var bytesTotal: Int64
    /// Entries written so far.
    public var entriesDone: Int
    /// Entries in the whole tree.
    public var entriesTotal: Int

    public init(bytesDone: Int64, bytesTotal: Int64, entriesDone: Int, entriesTotal: Int) {
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.entriesDone = entriesDone
        self.entriesTotal = entriesTotal
    }
}
