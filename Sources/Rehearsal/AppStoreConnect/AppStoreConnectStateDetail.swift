/// One entry of a build upload's `state.errors` / `state.warnings` (Apple's `StateDetail`): a code such as
/// `ITMS-90062` and the description Apple shows with it.
public struct AppStoreConnectStateDetail: Sendable, Codable, Equatable {
    public var code: String
    public var description: String

    public init(code: String, description: String) {
        self.code = code
        self.description = description
    }
}
