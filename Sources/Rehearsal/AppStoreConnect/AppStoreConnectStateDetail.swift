/// One entry of a build upload's `state.errors` / `state.warnings` (Apple's `StateDetail`): a code such as
/// `ITMS-90062` and the description Apple shows with it.
package struct AppStoreConnectStateDetail: Sendable, Codable, Equatable {
    package var code: String
    package var description: String

    package init(code: String, description: String) {
        self.code = code
        self.description = description
    }
}
