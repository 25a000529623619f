import Foundation

/// What a flow that works through App Store Connect over several requests needs: the client, where its progress
/// lines go, and a clock and a sleep that tests replace so polling takes no time.
package struct AppStoreConnectSession: Sendable {
    package let client: AppStoreConnectClient
    let log: @Sendable (String) -> Void
    let sleep: @Sendable (Duration) async throws -> Void
    let now: @Sendable () -> Date

    package init(
        client: AppStoreConnectClient, log: @escaping @Sendable (String) -> Void,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.client = client
        self.log = log
        self.sleep = sleep
        self.now = now
    }
}

/// A flow holding an ``AppStoreConnectSession`` (``AppStoreConnectUploader``, ``AppStoreSubmitter``,
/// ``TestFlightDistributor``, ``AppStoreRollout``), reaching its parts by name.
package protocol AppStoreConnectWorker: Sendable {
    var session: AppStoreConnectSession { get }
}

extension AppStoreConnectWorker {
    package var client: AppStoreConnectClient { session.client }
    func log(_ line: String) { session.log(line) }
    func sleep(_ duration: Duration) async throws { try await session.sleep(duration) }
    func now() -> Date { session.now() }
}
