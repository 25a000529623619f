import Foundation

/// A local server's state as one JSON file (`state.json` in its storage folder), read at start and rewritten
/// after every change, so a restarted server, and a second rehearsal, continue where the last one stopped.
struct SnapshotFile<Value: Codable>: Sendable {
    let path: String
    /// Names the server in errors.
    let server: String

    init(directory: String, server: String) {
        path = (directory as NSString).appendingPathComponent("state.json")
        self.server = server
    }

    /// The stored value; nil when nothing was stored yet.
    /// - Throws: ``LocalServerError/storage(_:_:_:)`` when the file exists but cannot be decoded.
    func load() throws -> Value? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try Self.decoder.decode(Value.self, from: data)
        } catch {
            throw LocalServerError.storage(server, path, "cannot read state: \(error)")
        }
    }

    /// Replaces the file with `value`. `.atomic` writes a temporary file and renames it; no fsync: this is a
    /// rehearsal store, not a ledger.
    func save(_ value: Value) {
        if let data = try? Self.encoder.encode(value) {
            try? data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
