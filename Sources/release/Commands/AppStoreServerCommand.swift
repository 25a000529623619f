import ArgumentParser
import Foundation
import Rehearsal
import ReleasePipeline
import ReleaseSupport

/// `release appstore-server`: runs the local App Store Connect stand-in until SIGINT/SIGTERM (hidden; for
/// rehearsals, tests of other tools and the upload benchmark).
struct AppStoreServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstore-server",
        abstract: "Run a local App Store Connect API stand-in on 127.0.0.1 until interrupted.",
        shouldDisplay: false
    )

    @Option(help: "Folder that keeps the state and the uploaded bytes.")
    var storage: String

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int = 0

    @Option(name: .customLong("key-id"), help: "The API key id whose tokens are accepted (the token's kid).")
    var keyID: String

    @Option(name: .customLong("issuer-id"), help: "The issuer id of that key (the token's iss).")
    var issuerID: String

    @Option(name: .customLong("public-key"), help: "The key's public half, a PEM file (a .p8 works too).")
    var publicKey: String

    @Option(name: .customLong("part-size"), help: "Bytes per upload operation.")
    var partSize: Int = 5 << 20

    @Option(name: .customLong("processing-polls"), help: "Reads of a processing upload or build before it moves on.")
    var processingPolls: Int = 2

    @Flag(name: .customLong("auto-create"), help: "Create unknown apps (by bundle id) and beta groups (by name) when looked up.")
    var autoCreate = false

    @Option(help: "The Apple team whose certificates and profiles it issues (default: ABCDE12345).")
    var team: String?

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: publicKey) else {
            throw ValidationError("cannot read --public-key '\(publicKey)'")
        }
        if let team, !RepositoryInspection.isTeamID(team) {
            throw ValidationError("--team '\(team)' is not an Apple team ID (10 capital letters and digits)")
        }
        var configuration = LocalAppStoreConnectServer.Configuration(
            storageDirectory: storage,
            keys: [.init(keyID: keyID, issuerID: issuerID, publicKeyPEM: String(decoding: data, as: UTF8.self))],
            port: port, partSize: partSize, processingPolls: processingPolls, autoCreate: autoCreate)
        if let team { configuration.teamID = team }
        let server = try LocalAppStoreConnectServer(configuration: configuration)
        let url = try server.start()
        Terminal.writeOutput(url + "\n")  // unbuffered: scripts read it at once
        await ServeCommand.waitForTermination()
        server.stop()
        Terminal.writeError("appstore-server: stopped\n")
    }
}
