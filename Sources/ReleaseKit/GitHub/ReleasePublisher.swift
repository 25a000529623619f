import Foundation
import ReleaseHTTP
import ReleaseSupport

/// Publishes a GitHub Release so that running it again ends in the same correct state.
///
/// The steps, each safe to repeat:
/// 1. find the release for the tag by listing releases (a draft is not found by tag), or create it as a
///    draft (a failed create is followed by a new listing, since the create may have landed);
/// 2. for each asset: skip it when the remote asset with its name is `uploaded` with the same size and
///    SHA-256 digest; delete a `starter` (broken) asset, or a different one when ``AssetReplacePolicy``
///    allows; upload it streamed from disk; after any failed or ambiguous upload (5xx, 422, timeout, reset)
///    list the assets again before retrying, because the upload may have landed;
/// 3. verify every asset (state, size, digest);
/// 4. publish, unless a draft was asked for.
///
/// A run that fails leaves at worst a draft with some assets, which the next run completes.
package struct ReleasePublisher: Sendable {
    package let client: GitHubClient
    package var observer: PublishObserver
    /// Attempts and back-off for uploads and release creation (whose failures are reconciled by listing).
    package var retry: RetryPolicy
    /// SHA-256 and size of a local file, on a thread of its own (hashing 1 GB must not block the pool); a test
    /// counts the files it reads.
    var digest: @Sendable (_ path: String) async throws -> (hex: String, size: Int64) = { try await FileDigest.sha256(ofFile: $0) }

    /// - Parameter retry: defaults to the client's policy.
    package init(client: GitHubClient, observer: PublishObserver = PublishObserver(), retry: RetryPolicy? = nil) {
        self.client = client
        self.observer = observer
        self.retry = retry ?? client.http.configuration.retryPolicy
    }

    // MARK: Preflight

    /// Read-only checks that ``publish(_:)`` can succeed: inputs, token, repository access, tag state, files.
    ///
    /// - Parameters:
    ///   - requirePush: whether a token without push access is a problem (a dry run only notes it).
    ///   - promisedPaths: asset paths an upstream step will create; their size is not checked yet.
    /// - Throws: ``GitHubError/preflight(_:)`` listing every problem found, or ``GitHubError/badCredentials(api:message:)``.
    package func preflight(
        _ publication: ReleasePublication,
        requirePush: Bool = true,
        promisedPaths: Set<String> = []
    ) async throws -> PreflightReport {
        var problems = Self.localProblems(publication, promisedPaths: promisedPaths)
        var notes: [String] = []
        let repository: GitHubRepository
        do {
            repository = try await client.repository(publication.repository)
        } catch GitHubError.api(_, _, 404, _) {
            problems.append("repository '\(publication.repository)' was not found at \(client.apiURL), or the token cannot see it")
            throw GitHubError.preflight(problems)
        }
        if !repository.canPush {
            let message = "the token cannot push to '\(publication.repository)' (permissions.push is false): it can read but not publish"
            if requirePush { problems.append(message) } else { notes.append(message) }
        }
        let releases = try await client.listReleases(publication.repository)
        let existing = Self.find(publication.tag, in: releases)
        if let existing {
            notes.append("release '\(publication.tag)' exists (\(existing.draft ? "draft" : "published")) and will be reused")
            if existing.isImmutable {
                problems += try await immutableProblems(existing, publication, promisedPaths: promisedPaths)
            }
        }
        guard problems.isEmpty else { throw GitHubError.preflight(problems) }
        return PreflightReport(canPush: repository.canPush, existing: existing, notes: notes)
    }

    /// Problems found without the network: names, tag, body length, files, sizes, colliding asset names.
    package static func localProblems(_ publication: ReleasePublication, promisedPaths: Set<String> = []) -> [String] {
        var problems: [String] = []
        let parts = publication.repository.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        if parts.count != 2 || parts.contains(where: { $0.isEmpty || String($0).rangeOfCharacter(from: allowed.inverted) != nil }) {
            problems.append("repository '\(publication.repository)' is not of the form 'owner/name'")
        }
        let forbidden = CharacterSet(charactersIn: " ~^:?*[\\").union(.whitespacesAndNewlines).union(.controlCharacters)
        if publication.tag.isEmpty || publication.tag.rangeOfCharacter(from: forbidden) != nil
            || publication.tag.contains("..") || publication.tag.hasSuffix(".lock") || publication.tag.hasPrefix("-")
        {
            problems.append("tag '\(publication.tag)' is not a valid git tag name")
        }
        if let body = publication.body, body.count > ReleasePublication.maximumBodyLength {
            problems.append("release body has \(body.count) characters; GitHub accepts at most \(ReleasePublication.maximumBodyLength)")
        }
        var byRemoteName: [String: [String]] = [:]
        for asset in publication.assets {
            byRemoteName[asset.remoteName, default: []].append(asset.name)
            if promisedPaths.contains(asset.path) { continue }
            var info = stat()
            guard stat(asset.path, &info) == 0 else {
                problems.append("asset '\(asset.path)' does not exist")
                continue
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                problems.append("asset '\(asset.path)' is not a regular file")
                continue
            }
            if Int64(info.st_size) >= ReleasePublication.maximumAssetSize {
                problems.append("asset '\(asset.path)' is \(ByteFormat.size(Int64(info.st_size))); GitHub accepts files under 2 GiB")
            }
        }
        for (remote, names) in byRemoteName.sorted(by: { $0.key < $1.key }) where names.count > 1 {
            problems.append("assets \(names.map { "'\($0)'" }.joined(separator: " and ")) would all be named '\(remote)' on GitHub")
        }
        return problems
    }

    private func immutableProblems(
        _ release: GitHubRelease, _ publication: ReleasePublication, promisedPaths: Set<String>
    ) async throws -> [String] {
        let remote = try await remoteAssets(of: release, publication)
        var problems: [String] = []
        for asset in publication.assets {
            guard let found = remote.first(where: { $0.name == asset.remoteName }) else {
                problems.append("release '\(publication.tag)' is immutable and published: asset '\(asset.remoteName)' is not in it and cannot be added; use a new tag")
                continue
            }
            guard !promisedPaths.contains(asset.path), FileManager.default.fileExists(atPath: asset.path) else { continue }
            let local = try await digest(asset.path)
            if !found.matches(size: local.size, sha256: local.hex) {
                problems.append("release '\(publication.tag)' is immutable and published: asset '\(asset.remoteName)' differs and cannot be replaced; use a new tag")
            }
        }
        return problems
    }

    // MARK: Publish

    /// Makes the release on GitHub match `publication` (see the type's documentation).
    /// - Throws: ``GitHubError`` or ``HTTPError`` saying what failed; the release is then at worst a draft.
    package func publish(_ publication: ReleasePublication) async throws -> PublishResult {
        let startRequests = client.statistics.requests
        let startBytes = client.statistics.bytesUploaded
        let problems = Self.localProblems(publication)
        guard problems.isEmpty else { throw GitHubError.preflight(problems) }

        var release = try await findOrCreate(publication)
        let remote = try await remoteAssets(of: release, publication)
        // Files are hashed inside `ensure`, concurrently, only to compare with a remote asset of the same name (a
        // new one is not hashed). An immutable release must already hold every file: check first.
        var known = [(hex: String, size: Int64)?](repeating: nil, count: publication.assets.count)
        if release.isImmutable {
            for (index, asset) in publication.assets.enumerated() { known[index] = try await digest(asset.path) }
            for (index, asset) in publication.assets.enumerated() {
                guard let local = known[index],
                    remote.first(where: { $0.name == asset.remoteName })?.matches(size: local.size, sha256: local.hex) == true
                else {
                    throw GitHubError.immutableRelease(
                        tag: publication.tag, detail: "asset '\(asset.remoteName)' is missing or different and cannot be changed; use a new tag"
                    )
                }
            }
        }

        // Upload, at most `concurrency` at once; results in the publication's order.
        var outcomes = [AssetOutcome?](repeating: nil, count: publication.assets.count)
        let target = release
        let hashes = known
        try await withThrowingTaskGroup(of: (Int, AssetOutcome).self) { group in
            var next = 0
            func addNext() {
                guard next < publication.assets.count else { return }
                let index = next
                let asset = publication.assets[index]
                let existing = remote.first { $0.name == asset.remoteName }
                group.addTask {
                    (index, try await self.ensure(asset, digest: hashes[index], existing: existing, release: target, publication))
                }
                next += 1
            }
            for _ in 0..<publication.concurrency { addNext() }
            while let (index, outcome) = try await group.next() {
                outcomes[index] = outcome
                addNext()
            }
        }
        let results = outcomes.compactMap { $0 }

        // Verify: list again if anything changed, else what was listed is current.
        let changed = results.contains { $0.changed }
        let final = changed ? try await client.listAssets(publication.repository, releaseID: release.id) : remote
        var mismatches: [String] = []
        var verified: [GitHubReleaseAsset] = []
        for (index, asset) in publication.assets.enumerated() {
            let named = final.filter { $0.name == asset.remoteName }
            guard let found = named.first else {
                mismatches.append("asset '\(asset.remoteName)' is missing")
                continue
            }
            verified.append(found)
            if named.count > 1 { mismatches.append("asset '\(asset.remoteName)' appears \(named.count) times") }
            if results[index].kept { continue }  // `replace: skip` kept a different remote asset on purpose
            let local = results[index].digest
            if found.state != "uploaded" { mismatches.append("asset '\(asset.remoteName)' is in state '\(found.state)'") }
            if found.size != local.size {
                mismatches.append("asset '\(asset.remoteName)' has \(found.size) bytes, expected \(local.size)")
            }
            if let digest = found.digest, let hex = local.hex, digest.lowercased() != "sha256:" + hex {
                mismatches.append("asset '\(asset.remoteName)' has digest \(digest), expected sha256:\(hex)")
            }
        }
        guard mismatches.isEmpty else { throw GitHubError.verificationFailed(mismatches) }

        release = try await converge(release, publication)
        release.assets = final
        return PublishResult(
            release: release,
            assets: verified,
            uploaded: zip(publication.assets, results).filter { $0.1.uploaded }.map { $0.0.remoteName },
            skipped: zip(publication.assets, results).filter { !$0.1.uploaded }.map { $0.0.remoteName },
            bytesUploaded: client.statistics.bytesUploaded - startBytes,
            apiCalls: client.statistics.requests - startRequests
        )
    }

    /// The release for the tag: published first, else the oldest draft (so repeated runs agree).
    static func find(_ tag: String, in releases: [GitHubRelease]) -> GitHubRelease? {
        let matching = releases.filter { $0.tagName == tag }
        return matching.first { !$0.draft } ?? matching.min { $0.id < $1.id }
    }

    private func remoteAssets(of release: GitHubRelease, _ publication: ReleasePublication) async throws -> [GitHubReleaseAsset] {
        if let assets = release.assets { return assets }
        return try await client.listAssets(publication.repository, releaseID: release.id)
    }

    private func findOrCreate(_ publication: ReleasePublication) async throws -> GitHubRelease {
        var lastReason = ""
        for attempt in 1...retry.maxAttempts {
            let releases = try await client.listReleases(publication.repository)
            if let found = Self.find(publication.tag, in: releases) {
                observer.log("using \(found.draft ? "draft" : "published") release '\(found.tagName)' (id \(found.id))")
                return found
            }
            let fields = GitHubReleaseFields(
                tagName: publication.tag, targetCommitish: publication.targetCommitish, name: publication.name,
                body: publication.body, draft: true, prerelease: publication.prerelease,
                generateReleaseNotes: publication.generateNotes ? true : nil
            )
            let path = GitHubClient.repoPath(publication.repository) + "/releases"
            let response: HTTPResponse
            do {
                response = try await client.send("POST", path, json: fields, retry: .once)
            } catch let error as HTTPError where error.isRetriable {
                lastReason = error.description
                try await wait(after: nil, attempt: attempt, what: "creating release '\(publication.tag)'", reason: lastReason)
                continue
            }
            if response.isSuccess {
                let created = try client.decode(GitHubRelease.self, response, url: client.fullURL(path))
                observer.log("created draft release '\(created.tagName)' (id \(created.id))")
                return created
            }
            let error = GitHubError.api(method: "POST", url: client.fullURL(path), status: response.status, message: GitHubClient.message(of: response))
            if response.status == 401 { try client.check(response, method: "POST", url: client.fullURL(path)) }
            guard RetryPolicy.isRetriable(response) || error.isAlreadyExists else { throw error }
            lastReason = error.description
            if attempt < retry.maxAttempts {
                try await wait(after: response, attempt: attempt, what: "creating release '\(publication.tag)'", reason: lastReason)
            }
        }
        throw GitHubError.api(
            method: "POST", url: client.fullURL(GitHubClient.repoPath(publication.repository) + "/releases"),
            status: 0, message: "gave up after \(retry.maxAttempts) attempts: \(lastReason)")
    }

    private func wait(after response: HTTPResponse?, attempt: Int, what: String, reason: String) async throws {
        let delay = retry.delay(after: response, attempt: attempt)
        observer.log("\(what) failed (\(reason)); checking the release and retrying in \(DurationFormat.string(delay)) (attempt \(attempt + 1) of \(retry.maxAttempts))")
        try await retry.sleep(delay)
    }

    /// How one asset ended.
    struct AssetOutcome: Sendable {
        /// This run uploaded it (possibly its upload landed despite an error).
        var uploaded: Bool
        /// Remote assets were created or deleted.
        var changed: Bool
        /// A different remote asset was kept (`replace: skip`).
        var kept: Bool
        /// The local file's SHA-256 (nil when it was uploaded new and never hashed) and size.
        var digest: (hex: String?, size: Int64)
    }

    /// What to do with a remote asset that does not match the local file: true when it was deleted.
    private func clear(
        _ existing: GitHubReleaseAsset, local: (hex: String, size: Int64), _ publication: ReleasePublication
    ) async throws -> Bool {
        if existing.state != "uploaded" {
            observer.log("deleting incomplete asset '\(existing.name)' (state '\(existing.state)')")
            try await client.deleteAsset(publication.repository, assetID: existing.id)
            return true
        }
        let detail = "remote \(existing.size) bytes \(existing.digest ?? "without digest"), local \(local.size) bytes sha256:\(local.hex)"
        switch publication.replace {
        case .fail:
            throw GitHubError.assetConflict(name: existing.name, detail: detail)
        case .skip:
            observer.log("warning: keeping different remote asset '\(existing.name)' (\(detail)) because replace is 'skip'")
            return false
        case .replace:
            observer.log("replacing asset '\(existing.name)' (\(detail))")
            try await client.deleteAsset(publication.repository, assetID: existing.id)
            return true
        }
    }

    private func ensure(
        _ asset: PublishAsset,
        digest known: (hex: String, size: Int64)?,
        existing: GitHubReleaseAsset?,
        release: GitHubRelease,
        _ publication: ReleasePublication
    ) async throws -> AssetOutcome {
        let name = asset.remoteName
        var local = known
        var changed = false
        func localDigest() async throws -> (hex: String, size: Int64) {
            if let local { return local }
            let hashed = try await digest(asset.path)
            local = hashed
            return hashed
        }
        if let existing {
            let hashed = try await localDigest()
            if existing.matches(size: hashed.size, sha256: hashed.hex) {
                observer.log("asset '\(name)' is up to date (\(ByteFormat.size(hashed.size)), sha256:\(hashed.hex.prefix(12))…)")
                return AssetOutcome(uploaded: false, changed: false, kept: false, digest: hashed)
            }
            guard try await clear(existing, local: hashed, publication) else {
                return AssetOutcome(uploaded: false, changed: false, kept: true, digest: hashed)
            }
            changed = true
        }
        let size = Self.fileSize(asset.path)
        // A file no remote asset is named like is not hashed at all: nothing needs comparing before it is sent,
        // and hashing it beside the upload cost 0.5 s of CPU per GB that, on a 2-core runner, the upload and the
        // server compete for (0.89x of `curl -T` for 1 GB through `release run`, scripts/bench-upload.sh). The
        // upload is checked by its state and size (TLS already guards the bytes in transit); GitHub's digest of
        // it is what a re-run compares the file with. A file that replaces a different asset was hashed for that
        // comparison, and its digest is checked too. After a failed upload the file is hashed before it is
        // looked for, since an upload that landed must be told from a different file of the same size.
        var lastReason = ""
        for attempt in 1...retry.maxAttempts {
            observer.log("uploading '\(name)' (\(ByteFormat.size(size)), \(asset.contentType))" + (attempt > 1 ? ", attempt \(attempt) of \(retry.maxAttempts)" : ""))
            var response: HTTPResponse?
            do {
                let sent = try await client.uploadAsset(
                    uploadURLTemplate: release.uploadURL, file: asset.path, name: asset.name, label: asset.label,
                    contentType: asset.contentType
                ) { [observer] bytes, total in observer.progress(name, bytes, total) }
                response = sent
                changed = true
                if sent.isSuccess {
                    let uploaded = try client.decode(GitHubReleaseAsset.self, sent, url: HTTPRequest.redact(release.uploadURL))
                    if uploaded.matches(size: local?.size ?? size, sha256: local?.hex) {
                        observer.log("uploaded '\(name)'")
                        return AssetOutcome(uploaded: true, changed: true, kept: false, digest: (local?.hex, local?.size ?? size))
                    }
                    lastReason = "the server stored \(uploaded.size) bytes in state '\(uploaded.state)' with digest \(uploaded.digest ?? "none")"
                } else {
                    let error = GitHubError.api(
                        method: "POST", url: HTTPRequest.redact(URITemplate.expand(release.uploadURL, ["name": asset.name])),
                        status: sent.status, message: GitHubClient.message(of: sent))
                    if sent.status == 401 { try client.check(sent, method: "POST", url: HTTPRequest.redact(release.uploadURL)) }
                    guard RetryPolicy.isRetriable(sent) || error.isAlreadyExists else { throw error }
                    lastReason = error.description
                }
            } catch let error as HTTPError where error.isRetriable {
                changed = true
                lastReason = error.description
            }
            let alreadyExists = response?.status == 422
            if attempt < retry.maxAttempts && !alreadyExists {
                try await wait(after: response, attempt: attempt, what: "upload of '\(name)'", reason: lastReason)
            }
            // The upload may have landed (a 504 after the server stored it): look before sending it again.
            let hashed = try await localDigest()
            let current = try await client.listAssets(publication.repository, releaseID: release.id)
            if let found = current.first(where: { $0.name == name }) {
                if found.matches(size: hashed.size, sha256: hashed.hex) {
                    observer.log("the upload of '\(name)' landed despite the error (\(lastReason))")
                    return AssetOutcome(uploaded: true, changed: true, kept: false, digest: hashed)
                }
                if attempt == retry.maxAttempts { break }
                guard try await clear(found, local: hashed, publication) else {
                    return AssetOutcome(uploaded: false, changed: changed, kept: true, digest: hashed)
                }
            }
        }
        throw GitHubError.uploadFailed(name: name, attempts: retry.maxAttempts, reason: lastReason)
    }

    /// Publishes the draft (unless a draft is wanted) and brings name, body and prerelease in line.
    private func converge(_ release: GitHubRelease, _ publication: ReleasePublication) async throws -> GitHubRelease {
        var fields = GitHubReleaseFields()
        var needed = false
        if !publication.draft && release.draft {
            fields.draft = false
            fields.makeLatest = publication.makeLatest
            needed = true
        }
        if let name = publication.name, name != (release.name ?? "") { fields.name = name; needed = true }
        if let body = publication.body, body != (release.body ?? "") { fields.body = body; needed = true }
        if publication.prerelease != release.prerelease { fields.prerelease = publication.prerelease; needed = true }
        guard needed else { return release }
        let updated = try await client.updateRelease(publication.repository, id: release.id, fields)
        if release.draft && !updated.draft { observer.log("published release '\(updated.tagName)': \(updated.htmlURL)") }
        return updated
    }

    // MARK: Helpers

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

}
