/// `xcode.archive`'s and `xcode.export`'s App Store Connect API key options (`authentication_key`,
/// `authentication_key_id`, `authentication_key_issuer_id`), declared once and written flat beside each step's own
/// options. ``XcodeAuthentication`` checks them and turns them into `xcodebuild` arguments.
package struct XcodeAuthenticationOptions: StepOptions, Equatable {
    @StepOption(
        help:
            "the App Store Connect API key's .p8 (its text, normally ${secrets.APP_STORE_CONNECT_KEY}, or a path) for Xcode-managed signing without a signed-in account: -authenticationKeyPath, with -allowProvisioningUpdates"
    )
    package var authenticationKey: String?
    @StepOption(help: "the API key's ID (-authenticationKeyID), e.g. ${env.APP_STORE_CONNECT_KEY_ID}")
    package var authenticationKeyID: String?
    @StepOption(help: "the API key's issuer ID (-authenticationKeyIssuerID), e.g. ${env.APP_STORE_CONNECT_ISSUER_ID}")
    package var authenticationKeyIssuerID: String?

    package init() {}
}
