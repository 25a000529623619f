/// Receives what a ``ReleasePublisher`` does, so the engine can render it: log lines and upload progress.
///
/// Callbacks may come from several threads at once (uploads run concurrently); they must be quick.
public struct PublishObserver: Sendable {
    /// One line for the step's log (never contains the token).
    public var log: @Sendable (String) -> Void
    /// Upload progress of one asset: (asset name, bytes sent, total bytes).
    public var progress: @Sendable (String, Int64, Int64) -> Void

    public init(
        log: @escaping @Sendable (String) -> Void = { _ in },
        progress: @escaping @Sendable (String, Int64, Int64) -> Void = { _, _, _ in }
    ) {
        self.log = log
        self.progress = progress
    }
}
