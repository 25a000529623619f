import Crypto
import Synchronization

/// SHA-256 of bytes as they stream past, for hashing a file while it uploads instead of reading it twice.
///
/// Fed from the transfer thread, read after the transfer; the `Mutex` makes that hand-over safe.
package final class StreamingDigest: Sendable {
    private let state = Mutex<(hasher: SHA256, count: Int64)>((SHA256(), 0))

    package init() {}

    /// Adds `bytes` to the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            state.hasher.update(bufferPointer: bytes)
            state.count += Int64(bytes.count)
        }
    }

    /// Bytes hashed so far.
    package var count: Int64 { state.withLock { $0.count } }

    /// Lower-case hex SHA-256 of everything added so far.
    package var hex: String {
        state.withLock { state -> String in
            Hex.string(state.hasher.finalize())
        }
    }
}
