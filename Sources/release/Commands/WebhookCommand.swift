import ArgumentParser
import Foundation
import ReleaseAppStoreConnect
import ReleaseExecution
import ReleaseHTTP
import ReleaseSupport

/// `release webhook`: verifies an App Store Connect webhook delivery and prints what to resume; `release webhook
/// create` gives the app its webhook.
struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook",
        abstract: "Verify an App Store Connect webhook delivery and print what to resume; create the app's webhook.",
        subcommands: [VerifyCommand.self, CreateCommand.self],
        defaultSubcommand: VerifyCommand.self
    )

    /// `release webhook [verify] --secret SECRET [--signature VALUE] < BODY`.
    struct VerifyCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Verify a delivery's body (standard input) against its x-apple-signature and print what to resume.",
            discussion: """
                The body is read from standard input (at most 64 KiB) and checked before anything else: HMAC-SHA256 \
                of the exact bytes under the webhook's secret, against the x-apple-signature header's value \
                (hmacsha256=<hex>, sha256=<hex>, bare hex or base64). A delivery that does not verify exits 1 and \
                nothing is read further. With APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID and \
                APP_STORE_CONNECT_KEY set, the build upload or App Store version it names is read for its version and \
                build, and the ref to resume (release/X.Y.Z) is printed. Nothing is ever written.
                """
        )

        @Option(help: "The webhook's secret (default: $APP_STORE_CONNECT_WEBHOOK_SECRET).")
        var secret: String?

        @Option(help: "The x-apple-signature header's value (default: $HTTP_X_APPLE_SIGNATURE).")
        var signature: String?

        @Flag(help: "Print the result as JSON on standard output.")
        var json = false

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            // A terminal would wait for a body nobody types: the delivery comes on a pipe or from a file.
            if Terminal.isTerminal(0) {
                Terminal.writeError("error: release webhook reads the delivery's body on standard input: pipe it in (release webhook … < body.json)\n")
                throw ExitCode(ExitCodes.usage)
            }
            let body = WebhookReceiver.readBody()
            let resume: WebhookResume
            do {
                resume = try await WebhookReceiver.receive(body: body, signature: signature, secret: secret, environment: environment)
            } catch let error as WebhookError {
                Terminal.writeError("error: \(error)\n")
                if json { Terminal.writeOutput(JSONWriter.text(["verified": false, "error": error.description], pretty: true)! + "\n") }
                throw ExitCode(error == .noSecret || error == .noSignature ? ExitCodes.usage : ExitCodes.stepFailed)
            }
            if json {
                Terminal.writeOutput((JSONWriter.text(resume.json, pretty: true) ?? "{}") + "\n")
            } else {
                Terminal.writeError(resume.text)
            }
        }
    }

    /// `release webhook create --url URL --secret SECRET --bundle-id ID [--event TYPE]... [--name NAME]`.
    struct CreateCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create (or update) the app's App Store Connect webhook for URL, with the key in the environment.",
            discussion: """
                Reads APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID and APP_STORE_CONNECT_KEY (PEM text or a \
                path to the .p8), and APP_STORE_CONNECT_API_URL when set. An existing webhook of the app with the same \
                URL is updated (secret, events, enabled) instead of created again.
                """
        )

        @Option(help: "Where App Store Connect POSTs deliveries (https://…).")
        var url: String

        @Option(help: "The secret deliveries are signed with (default: $APP_STORE_CONNECT_WEBHOOK_SECRET).")
        var secret: String?

        @Option(name: .customLong("bundle-id"), help: "The app's bundle id.")
        var bundleID: String

        @Option(
            name: .customLong("event"),
            help:
                "A WebhookEventType to subscribe to, repeatable (default: BUILD_UPLOAD_STATE_UPDATED, APP_STORE_VERSION_APP_VERSION_STATE_UPDATED, BUILD_BETA_DETAIL_EXTERNAL_BUILD_STATE_UPDATED)."
        )
        var events: [String] = []

        @Option(help: "The webhook's name.")
        var name = "release"

        @Flag(help: "Print the result as JSON on standard output.")
        var json = false

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            let request = WebhookRegistration.Request(
                bundleID: bundleID, url: url, secret: secret ?? environment[WebhookReceiver.secretVariable] ?? "", name: name,
                eventTypes: events.isEmpty ? WebhookResume.releaseEventTypes : events)
            let masker = SecretMasker(secrets: [request.secret])
            do {
                try WebhookRegistration.check(request)
            } catch {
                Terminal.writeError("error: \(masker.mask(String(describing: error)))\n")
                throw ExitCode(ExitCodes.usage)
            }
            let names = ["APP_STORE_CONNECT_KEY_ID", "APP_STORE_CONNECT_ISSUER_ID", "APP_STORE_CONNECT_KEY"]
            let missing = names.filter { (environment[$0] ?? "").isEmpty }
            guard missing.isEmpty else {
                Terminal.writeError("error: release webhook create reads the API key from the environment: set \(missing.joined(separator: ", "))\n")
                throw ExitCode(ExitCodes.usage)
            }
            do {
                let key = try AppStoreConnectKey(
                    id: environment["APP_STORE_CONNECT_KEY_ID"] ?? "", issuer: environment["APP_STORE_CONNECT_ISSUER_ID"] ?? "",
                    pem: environment["APP_STORE_CONNECT_KEY"] ?? "")
                let client = try AppStoreConnectClient(
                    apiURL: AppStoreConnectClient.apiURL(environment: environment), key: key,
                    http: HTTPClient(configuration: .init(environment: environment)))
                let outcome = try await WebhookRegistration(client: client).register(request)
                if json {
                    Terminal.writeOutput((JSONWriter.text(outcome.json, pretty: true) ?? "{}") + "\n")
                } else {
                    Terminal.writeError(
                        "\(outcome.created ? "created" : "updated") webhook \(outcome.webhookID) of app \(outcome.appID) (\(bundleID)): \(request.eventTypes.joined(separator: ", ")) to \(url)\n"
                    )
                }
            } catch {
                Terminal.writeError("error: \(masker.mask(String(describing: error)))\n")
                throw ExitCode(ExitCodes.stepFailed)
            }
        }
    }
}
