/// Receives what a ``ReleasePublisher`` does, so the engine can render it: log lines and upload progress.
///
/// Callbacks may come from several threads at once (uploads run concurrently); they must be quick.
package struct PublishObserver: Sendable {
    /// One line for the step's log (never contains the token).
    package var log: @Sendable (String) -> Void
    /// Upload progress of one asset: (asset name, bytes sent, total bytes).
    package var progress: @Sendable (String, Int64, Int64) -> Void

    package init(
        log: @escaping @Sendable (String) -> Void = { _ in },
        progress: @escaping @Sendable (String, Int64, Int64) -> Void = { _, _, _ in }
    ) {
        self.log = log
        self.progress = progress
    }
}
