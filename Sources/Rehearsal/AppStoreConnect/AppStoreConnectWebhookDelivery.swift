import Foundation

/// One webhook delivery the local App Store Connect server made (or is about to make): where it went, the body, the
/// `x-apple-signature` it carried, and the receiver's answer.
public struct AppStoreConnectWebhookDelivery: Sendable, Equatable {
    public var webhookID: String
    /// `BUILD_UPLOAD_STATE_UPDATED`, `APP_STORE_VERSION_APP_VERSION_STATE_UPDATED`.
    public var eventType: String
    public var url: String
    public var body: Data
    public var signature: String
    /// The receiver's HTTP status; nil before sending or when it could not be reached.
    public var status: Int?
    /// Why it could not be sent.
    public var failure: String?
}
