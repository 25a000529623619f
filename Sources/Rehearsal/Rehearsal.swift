import Crypto
import Foundation
import ReleaseAppStoreConnect
import ReleaseSteps
import _CryptoExtras

/// `release run --rehearse`: local stand-ins on 127.0.0.1 for the remote services steps talk to, so nothing
/// leaves the machine, and a summary of what they received.
///
/// - `github`: a ``LocalGitHubServer`` kept on disk, so a second rehearsal shows how a re-run converges;
/// - `appstore`: a ``LocalAppStoreConnectServer`` kept in `<storage>/appstore`, creating apps and beta groups as
///   they are looked up;
/// - `sentry`: a ``LocalSentryServer`` answering release health from a scripted series kept in `<storage>/sentry`
///   (`series.json`, editable), so successive rehearsals of a rollout guard see a build's health change;
/// - `http` and `slack`: a ``RecordingServer`` for plain HTTP endpoints and webhooks, which receives each
///   request with the original host as the first path segment (``ServiceEndpoints/url(_:for:)``).
///
/// ``endpoints`` maps each service to its stand-in's base URL. The GitHub server accepts
/// `$GITHUB_TOKEN`; when it is unset, the rehearsal generates one and puts it in the run's environment, so
/// `${secrets.GITHUB_TOKEN}` resolves on a laptop without a real token. Likewise the App Store Connect stand-in
/// accepts the key in `$APP_STORE_CONNECT_KEY_ID`, `$APP_STORE_CONNECT_ISSUER_ID` and `$APP_STORE_CONNECT_KEY` (the
/// `.p8` text or path; only its public half is used); when one is unset, the rehearsal generates a P-256 key and
/// puts all three in the run's environment. Every other secret the pipeline names and the environment lacks gets a
/// placeholder (a URL on `rehearsal.invalid` for names that say URL or webhook, so a Slack webhook reaches the
/// stand-in): a rehearsal needs no real secret. ``placeholderSecrets`` names them and ``header()`` says so.
package final class Rehearsal: Sendable {
    /// The GitHub stand-in.
    package let github: LocalGitHubServer
    /// The App Store Connect stand-in.
    package let appStore: LocalAppStoreConnectServer
    /// The stand-in for plain HTTP endpoints.
    package let http: RecordingServer
    /// The Sentry stand-in: scripted release health, kept in `<storage>/sentry` (edit `series.json` there).
    package let sentry: LocalSentryServer
    /// Each service with a stand-in → the stand-in's base URL.
    package let endpoints: [Service: String]
    /// Where the GitHub stand-in keeps its releases.
    package let storage: String
    /// The run's environment with the token the GitHub stand-in accepts.
    package let environment: [String: String]
    /// The secrets that were not set and got a placeholder (names only), sorted.
    package let placeholderSecrets: [String]
    /// Those of ``placeholderSecrets`` whose placeholder no stand-in accepts (a certificate, a profile): not the API
    /// key, token, certificate key or webhook URL the stand-ins take. A step refusing one names it.
    package var opaquePlaceholderSecrets: [String] {
        placeholderSecrets.filter { name in
            !name.hasPrefix("APP_STORE_CONNECT_") && name != "GITHUB_TOKEN" && !Self.isCertificateKey(name)
                && !Self.placeholder(for: name).hasPrefix("https://")
        }
    }

    /// Where rehearsals keep their releases by default: inside `.git/` at a repository's top, else `.release/`.
    package static func defaultStorage(in directory: String) -> String {
        var isDirectory: ObjCBool = false
        let git = (directory as NSString).appendingPathComponent(".git")
        if FileManager.default.fileExists(atPath: git, isDirectory: &isDirectory), isDirectory.boolValue {
            return (git as NSString).appendingPathComponent("release-rehearsal")
        }
        return (directory as NSString).appendingPathComponent(".release/rehearsal")
    }

    /// Starts every stand-in on a free loopback port.
    /// - Throws: ``LocalServerError`` when a server cannot start or the storage is unusable.
    /// - Parameters:
    ///   - secrets: the secrets the pipeline refers to; each one unset gets a placeholder.
    ///   - teamID: the Apple team the pipeline signs for (its `team` variable): the App Store Connect stand-in's
    ///     certificates and profiles are that team's, as the real account's are, so Xcode's check of a profile's team
    ///     against `DEVELOPMENT_TEAM` passes; nil keeps the stand-in's own team, `ABCDE12345`.
    package init(storage: String, environment: [String: String], secrets: Set<String> = [], teamID: String? = nil) throws {
        var environment = environment
        let given = { (name: String) in !(environment[name] ?? "").isEmpty }
        var placeholders = Set(secrets.filter { !given($0) })
        if !Self.appStoreKeyNames.allSatisfy(given) {
            placeholders.formUnion(secrets.filter { $0.hasPrefix("APP_STORE_CONNECT_") })
        }
        let token = environment["GITHUB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? "rehearsal-\(UUID().uuidString.lowercased())"
        environment["GITHUB_TOKEN"] = token
        github = try LocalGitHubServer(configuration: .init(storageDirectory: storage, token: token, port: 0))
        var appStoreConfiguration = LocalAppStoreConnectServer.Configuration(
            storageDirectory: (storage as NSString).appendingPathComponent("appstore"),
            // Builds are processed at once: a rehearsal shows the whole flow without Apple's minutes of waiting.
            keys: Self.appStoreKeys(&environment), processingPolls: 0, autoCreate: true)
        if let teamID { appStoreConfiguration.teamID = teamID }
        appStore = try LocalAppStoreConnectServer(configuration: appStoreConfiguration)
        for name in secrets where !given(name) {
            environment[name] = Self.isCertificateKey(name) ? try Self.certificateKey(storage: storage) : Self.placeholder(for: name)
        }
        http = RecordingServer()
        sentry = try LocalSentryServer(configuration: .init(storageDirectory: (storage as NSString).appendingPathComponent("sentry")))
        do {
            let recording = try http.start()
            endpoints = [
                .github: try github.start(), .appstore: try appStore.start(), .http: recording, .slack: recording, .sentry: try sentry.start(),
                .git: (storage as NSString).appendingPathComponent("git"),
            ]
        } catch {
            github.stop()
            appStore.stop()
            http.stop()
            sentry.stop()
            throw error
        }
        self.storage = storage
        self.environment = environment
        placeholderSecrets = placeholders.sorted()
    }

    /// A stand-in value for an unset secret: an `https://rehearsal.invalid/…` URL when the name says it holds one
    /// (a webhook), else a random token.
    static func placeholder(for name: String) -> String {
        let random = UUID().uuidString.lowercased()
        let upper = name.uppercased()
        if ["URL", "WEBHOOK", "HOOK", "ENDPOINT"].contains(where: upper.contains) {
            return "https://rehearsal.invalid/\(name.lowercased())/\(random)"
        }
        return "rehearsal-\(random)"
    }

    /// Whether an unset secret holds a signing certificate's private key (`CERTIFICATE_KEY`, `SIGNING_KEY`), which
    /// `signing.sync` reads as an RSA key: its placeholder is one.
    static func isCertificateKey(_ name: String) -> Bool {
        let upper = name.uppercased()
        return upper.contains("CERTIFICATE_KEY") || upper.contains("SIGNING_KEY")
    }

    /// An RSA 2048 key in PKCS #1 PEM kept in the storage folder, so every rehearsal finds the certificate the
    /// earlier ones made from it (a test key, made here, never used elsewhere).
    static func certificateKey(storage: String) throws -> String {
        let path = (storage as NSString).appendingPathComponent("rehearsal-certificate-key.pem")
        if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty { return text }
        let pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw LocalServerError.storage("rehearsal", path, "cannot write the placeholder certificate key")
        }
        return pem
    }

    /// The lines a rehearsal prints before the run: what is replaced, what really happens, which secrets are stand-ins.
    package func header() -> String {
        var text =
            "rehearsal: GitHub, App Store Connect, Sentry, HTTP uploads and Slack webhooks go to local stand-ins on 127.0.0.1, git pushes to local bare repositories; nothing leaves the machine\n"
        text += "rehearsal: local changes are real: the version bump, commits, tags and files the steps write happen in this checkout\n"
        if !placeholderSecrets.isEmpty {
            text += "rehearsal: placeholder values (masked) for secrets that are not set: \(placeholderSecrets.joined(separator: ", "))\n"
        }
        return text
    }

    /// The App Store Connect API key's three settings, as the starter pipelines and `Pipelines/` name them.
    static let appStoreKeyNames = ["APP_STORE_CONNECT_KEY_ID", "APP_STORE_CONNECT_ISSUER_ID", "APP_STORE_CONNECT_KEY"]

    /// For a dry run, which sends nothing: every secret in `secrets` that `environment` lacks gets a placeholder, and
    /// the App Store Connect API key a generated throwaway key (so steps that read the key can show what they would
    /// do), like a rehearsal's.
    /// - Returns: the names that got one, sorted.
    package static func fillPlaceholders(_ environment: inout [String: String], secrets: Set<String>) -> [String] {
        let snapshot = environment
        let given = { (name: String) in !(snapshot[name] ?? "").isEmpty }
        var filled = Set(secrets.filter { !given($0) })
        if !appStoreKeyNames.allSatisfy(given), secrets.contains(where: { $0.hasPrefix("APP_STORE_CONNECT_") }) {
            filled.formUnion(appStoreKeyNames.filter { !given($0) })
            _ = appStoreKeys(&environment)
        }
        for name in secrets where !given(name) && (environment[name] ?? "").isEmpty {
            // A certificate's private key must parse as one: a throwaway RSA key, kept nowhere.
            environment[name] =
                isCertificateKey(name)
                ? ((try? _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation) ?? placeholder(for: name))
                : placeholder(for: name)
        }
        return filled.sorted()
    }

    /// The key the App Store Connect stand-in accepts: the environment's, or a generated one put there.
    private static func appStoreKeys(_ environment: inout [String: String]) -> [LocalAppStoreConnectServer.AcceptedKey] {
        let names = appStoreKeyNames
        let given = names.map { environment[$0].flatMap { $0.isEmpty ? nil : $0 } }
        if let keyID = given[0], let issuer = given[1], let pem = given[2] {
            // A key that cannot be read is accepted by nobody: the steps report what is wrong with it.
            guard let key = try? AppStoreConnectKey(id: keyID, issuer: issuer, pem: pem), let publicKey = try? key.publicKeyPEM else { return [] }
            return [.init(keyID: key.id, issuerID: key.issuer, publicKeyPEM: publicKey)]
        }
        let privateKey = P256.Signing.PrivateKey()
        let keyID = "REHEARSAL" + String(UUID().uuidString.prefix(1))
        let issuer = UUID().uuidString.lowercased()
        environment[names[0]] = keyID
        environment[names[1]] = issuer
        environment[names[2]] = privateKey.pemRepresentation
        return [.init(keyID: keyID, issuerID: issuer, publicKeyPEM: privateKey.publicKey.pemRepresentation)]
    }

    /// What the stand-ins hold now: each release with its assets, sizes and digests, then every request the
    /// HTTP endpoint received.
    package func summary() -> String {
        let releases = github.summary()
        var text = "rehearsal: local GitHub server \(github.url) (releases kept in \(storage))\n"
        text += releases.isEmpty ? "  nothing was published\n" : releases.map { "  \($0)\n" }.joined()
        let uploads = appStore.summary()
        text += "rehearsal: local App Store Connect \(appStore.url) (kept in \(appStore.configuration.storageDirectory))\n"
        text += uploads.isEmpty ? "  nothing was uploaded\n" : uploads.map { "  \($0)\n" }.joined()
        let requests = http.summary()
        text += "rehearsal: local HTTP endpoint \(http.url)\n"
        text += requests.isEmpty ? "  nothing was received\n" : requests.map { "  \($0)\n" }.joined()
        // Only when something asked: most pipelines never read release health.
        let health = sentry.summary()
        if !health.isEmpty {
            text += "rehearsal: local Sentry \(sentry.url) (scripted health in \(sentry.configuration.storageDirectory ?? ""))\n"
            text += health.map { "  \($0)\n" }.joined()
        }
        return text
    }

    /// The summary as JSON values for the `rehearsal_finished` event of `--log-format json`: each stand-in's URL and
    /// the lines ``summary()`` shows for it.
    package func summaryFields() -> [String: Any] {
        [
            "github": ["url": github.url, "storage": storage, "releases": github.summary()] as [String: Any],
            "appstore": ["url": appStore.url, "storage": appStore.configuration.storageDirectory, "uploads": appStore.summary()] as [String: Any],
            "http": ["url": http.url, "requests": http.summary()] as [String: Any],
        ].merging(sentry.summary().isEmpty ? [:] : ["sentry": ["url": sentry.url, "requests": sentry.summary()] as [String: Any]]) { first, _ in first }
    }

    /// Stops every stand-in.
    package func stop() {
        github.stop()
        appStore.stop()
        http.stop()
        sentry.stop()
    }
}
