import ArgumentParser
import Foundation
import ReleaseGitHub
import ReleaseHTTP
import ReleaseSupport

/// `release upload-asset`: publishes files to a GitHub release with the converging publisher (hidden; used
/// by `scripts/bench-upload.sh` and handy for one-off uploads).
struct UploadAssetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload-asset",
        abstract: "Publish files as assets of a GitHub release (converging: re-runs upload nothing).",
        shouldDisplay: false
    )

    @Option(help: "API base URL (default $GITHUB_API_URL, else https://api.github.com).")
    var api: String?

    @Option(help: "Repository, owner/name.")
    var repo: String

    @Option(help: "Release tag.")
    var tag: String

    @Option(help: "Token (default $GITHUB_TOKEN).")
    var token: String?

    @Flag(help: "Leave the release a draft.")
    var draft = false

    @Option(help: "Different remote asset with the same name: fail, replace or skip.")
    var replace: String = "fail"

    @Flag(help: "Print the result as JSON on stdout.")
    var json = false

    @Flag(name: .customLong("transfer-only"), help: "Benchmark the transfer alone: upload each file once into a new draft, without preflight, hashing or verification.")
    var transferOnly = false

    @Argument(help: "Files to upload.")
    var files: [String]

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let token = token ?? environment["GITHUB_TOKEN"], !token.isEmpty else {
            throw ValidationError("pass --token or set GITHUB_TOKEN")
        }
        guard let policy = AssetReplacePolicy(rawValue: replace) else {
            throw ValidationError("--replace must be fail, replace or skip")
        }
        let masker = SecretMasker(secrets: [token])
        let api = api ?? environment["GITHUB_API_URL"] ?? "https://api.github.com"
        let client = try GitHubClient(
            apiURL: api, token: token,
            configuration: HTTPClient.Configuration { line in
                Terminal.writeError(masker.mask(line) + "\n")
            })
        let publisher = ReleasePublisher(
            client: client,
            observer: PublishObserver(log: { line in
                Terminal.writeError(masker.mask(line) + "\n")
            }))
        let cwd = Platform.currentDirectory()
        let publication = ReleasePublication(
            repository: repo, tag: tag, name: tag, draft: draft,
            assets: files.map { PublishAsset(path: $0.hasPrefix("/") ? $0 : cwd + "/" + $0) }, replace: policy
        )
        let started = Date()
        if transferOnly {
            try await transfer(publication, client: client, masker: masker, started: started)
            return
        }
        do {
            _ = try await publisher.preflight(publication)
            let result = try await publisher.publish(publication)
            let seconds = Date().timeIntervalSince(started)
            if json {
                let object: [String: Any] = [
                    "url": result.release.htmlURL, "bytes_uploaded": result.bytesUploaded, "api_calls": client.statistics.requests, "publish_api_calls": result.apiCalls,
                    "uploaded": result.uploaded, "skipped": result.skipped, "seconds": seconds,
                    "assets": result.assets.map(\.browserDownloadURL),
                ]
                print(JSONWriter.text(object) ?? "{}")
            } else {
                print(
                    "\(result.release.htmlURL): \(result.uploaded.count) uploaded, \(result.skipped.count) already there, \(ByteFormat.size(result.bytesUploaded)), \(client.statistics.requests) API calls (preflight included), \(String(format: "%.2f", seconds)) s"
                )
            }
        } catch {
            Terminal.writeError("error: " + masker.mask("\(error)") + "\n")
            throw ExitCode(1)
        }
    }

    /// Only the streaming upload through libcurl, for comparing the transfer itself with `curl -T`.
    private func transfer(_ publication: ReleasePublication, client: GitHubClient, masker: SecretMasker, started: Date) async throws {
        do {
            let release = try await client.createRelease(publication.repository, GitHubReleaseFields(tagName: publication.tag, draft: true))
            var bytes: Int64 = 0
            for asset in publication.assets {
                let response = try await client.uploadAsset(
                    uploadURLTemplate: release.uploadURL, file: asset.path, name: asset.name, contentType: asset.contentType
                )
                guard response.status == 201 else {
                    throw GitHubError.api(method: "POST", url: release.uploadURL, status: response.status, message: GitHubClient.message(of: response))
                }
                bytes += response.bytesSent
            }
            let seconds = Date().timeIntervalSince(started)
            print(json ? "{\"bytes_uploaded\":\(bytes),\"seconds\":\(seconds)}" : "\(bytes) bytes in \(String(format: "%.2f", seconds)) s")
        } catch {
            Terminal.writeError("error: " + masker.mask("\(error)") + "\n")
            throw ExitCode(1)
        }
    }
}
