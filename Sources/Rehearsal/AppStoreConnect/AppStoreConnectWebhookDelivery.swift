import Foundation

/// One webhook delivery the local App Store Connect server made (or is about to make): where it went, the body, the
/// `x-apple-signature` it carried, and the receiver's answer.
package struct AppStoreConnectWebhookDelivery: Sendable, Equatable {
    package var webhookID: String
    /// `BUILD_UPLOAD_STATE_UPDATED`, `APP_STORE_VERSION_APP_VERSION_STATE_UPDATED`.
    package var eventType: String
    package var url: String
    package var body: Data
    package var signature: String
    /// The receiver's HTTP status; nil before sending or when it could not be reached.
    package var status: Int?
    /// Why it could not be sent.
    package var failure: String?
}
