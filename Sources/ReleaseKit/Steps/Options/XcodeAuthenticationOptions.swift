/// `xcode.archive`'s and `xcode.export`'s App Store Connect API key options (`authentication_key`,
/// `authentication_key_id`, `authentication_key_issuer_id`), declared once and written flat beside each step's own
/// options. They check themselves (all three or none, a key ID of letters and digits); ``XcodeAuthentication`` turns
/// them into `xcodebuild` arguments.
package struct XcodeAuthenticationOptions: StepOptions, Equatable {
    @StepOption(
        help:
            "the App Store Connect API key's .p8 (its text, normally ${secrets.APP_STORE_CONNECT_KEY}, or a path) for Xcode-managed signing without a signed-in account: -authenticationKeyPath, with -allowProvisioningUpdates"
    )
    package var authenticationKey: String?
    @StepOption(must: .beKeyID, help: "the API key's ID (-authenticationKeyID), e.g. ${env.APP_STORE_CONNECT_KEY_ID}")
    package var authenticationKeyID: String?
    @StepOption(help: "the API key's issuer ID (-authenticationKeyIssuerID), e.g. ${env.APP_STORE_CONNECT_ISSUER_ID}")
    package var authenticationKeyIssuerID: String?

    package init() {}

    /// All three, or none.
    /// - Throws: ``StepError/invalidOption(_:_:)`` naming the first one missing or empty.
    package func check() throws(StepError) {
        let (key, keyID, issuerID) = (authenticationKey, authenticationKeyID, authenticationKeyIssuerID)
        if key == nil, keyID == nil, issuerID == nil { return }
        guard let key, !key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw StepError.invalidOption(
                "authentication_key", "missing or empty: give the API key's .p8 (${secrets.APP_STORE_CONNECT_KEY}) with authentication_key_id and authentication_key_issuer_id")
        }
        guard let keyID, !keyID.isEmpty else {
            throw StepError.invalidOption("authentication_key_id", "missing: the API key's ID (${env.APP_STORE_CONNECT_KEY_ID})")
        }
        guard let issuerID, !issuerID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw StepError.invalidOption("authentication_key_issuer_id", "missing: the issuer ID (${env.APP_STORE_CONNECT_ISSUER_ID})")
        }
    }
}
