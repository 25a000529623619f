import Foundation
import ReleaseSupport

/// What a rehearsal sent to App Store Connect, for `release run --rehearse` to print at the end. No token,
/// key or header appears here.
extension LocalAppStoreConnectServer {
    /// One line per build upload (oldest first) with its file, then builds, groups, what-to-test texts and
    /// beta review submissions, and the bytes received since start:
    ///
    /// ```
    /// upload com.example.app 1.4.0 (42) IOS COMPLETE  Demo.ipa 12.3 MiB  build VALID
    /// group External Testers (com.example.app): builds 42
    /// what to test en-US for 42: "Fixes the login crash"
    /// beta review 42: WAITING_FOR_REVIEW
    /// app store version com.example.app 1.4.0 IOS WAITING_FOR_REVIEW  build 1.4.0 (42)  release AFTER_APPROVAL  phased INACTIVE
    /// what's new en-US for 1.4.0: "Fixes the login crash"
    /// review submission IOS WAITING_FOR_REVIEW: 1.4.0
    /// App Store review and release requests since start: 9 reads, 8 writes
    /// webhook com.example.app http://127.0.0.1:8081/asc: 2 deliveries since start, 2 answered 2xx
    /// bytes received on upload URLs since start: 12.3 MiB
    /// ```
    package func summary() -> [String] {
        state.withLock { state in
            let snapshot = state.snapshot
            func bundleID(_ appID: String) -> String { snapshot.apps.first { $0.id == appID }?.bundleID ?? appID }
            func buildLabel(_ id: String) -> String {
                guard let build = snapshot.builds.first(where: { $0.id == id }) else { return id }
                let version = snapshot.preReleaseVersions.first { $0.id == build.preReleaseVersionID }?.version ?? "?"
                return "\(version) (\(build.version))"
            }
            var lines: [String] = []
            for upload in snapshot.buildUploads.sorted(by: { $0.createdDate < $1.createdDate }) {
                var line = "upload \(bundleID(upload.appID)) \(upload.version) (\(upload.build)) \(upload.platform) \(upload.state)"
                for file in snapshot.files where file.uploadID == upload.id {
                    let received = file.received.reduce(Int64(0)) { $0 + file.range(of: $1).length }
                    line += "  \(Echo.text(file.fileName)) \(ByteFormat.size(file.fileSize))"
                    if file.state == "AWAITING_UPLOAD" { line += " (\(ByteFormat.size(received)) received)" }
                }
                if let build = upload.buildID, let processed = snapshot.builds.first(where: { $0.id == build }) {
                    line += "  build \(processed.processingState)"
                }
                for error in upload.errors { line += "  \(error.code): \(Echo.text(error.description))" }
                lines.append(line)
            }
            for build in snapshot.builds where build.uploadID == nil {
                lines.append("build \(bundleID(build.appID)) \(buildLabel(build.id)) \(build.processingState) (already there)")
            }
            for group in snapshot.betaGroups where !group.buildIDs.isEmpty {
                let builds = group.buildIDs.map(buildLabel).joined(separator: ", ")
                lines.append("group \(Echo.text(group.name)) (\(bundleID(group.appID)))\(group.isInternal ? " internal" : ""): \(builds)")
            }
            for localization in snapshot.localizations {
                lines.append("what to test \(localization.locale) for \(buildLabel(localization.buildID)): \"\(Echo.text(localization.whatsNew ?? "", limit: 80))\"")
            }
            for submission in snapshot.submissions {
                lines.append("beta review \(buildLabel(submission.buildID)): \(submission.state)")
            }
            for version in snapshot.appStoreVersions.sorted(by: { $0.createdDate < $1.createdDate }) {
                var line = "app store version \(bundleID(version.appID)) \(Echo.text(version.versionString)) \(version.platform) \(version.appStoreState)"
                if let build = version.buildID { line += "  build \(buildLabel(build))" }
                if let releaseType = version.releaseType { line += "  release \(releaseType)" }
                if let date = version.earliestReleaseDate { line += " from \(date)" }
                if let phased = snapshot.phasedReleases.first(where: { $0.versionID == version.id }) { line += "  phased \(phased.state)" }
                lines.append(line)
                for localization in snapshot.versionLocalizations where localization.versionID == version.id && localization.whatsNew != nil {
                    lines.append("what's new \(localization.locale) for \(Echo.text(version.versionString)): \"\(Echo.text(localization.whatsNew ?? "", limit: 80))\"")
                }
            }
            for submission in snapshot.reviewSubmissions {
                let versions = snapshot.reviewItems.filter { $0.submissionID == submission.id && $0.state != "REMOVED" }.compactMap { item in
                    snapshot.appStoreVersions.first { $0.id == item.versionID }.map { Echo.text($0.versionString) }
                }
                lines.append(
                    "review submission \(submission.platform) \(submission.state)\(submission.canceled ? " (canceled)" : ""): "
                        + (versions.isEmpty ? "no items" : versions.joined(separator: ", ")))
            }
            // What a re-run that converged shows as "0 writes": only when such requests were made at all.
            let release = state.exchanges.filter { $0.operationID.flatMap(AppStoreConnectOperation.init(rawValue:))?.isAppStoreRelease == true }
            if !release.isEmpty {
                let writes = release.filter { $0.method != "GET" }.count
                lines.append("App Store review and release requests since start: \(release.count - writes) reads, \(writes) writes")
            }
            lines += signingSummary(snapshot)
            // Webhooks (never their secret) and the signed deliveries they got.
            for webhook in snapshot.webhooks {
                let sent = state.deliveries.filter { $0.webhookID == webhook.id }
                let answered = sent.filter { $0.status.map { (200..<300).contains($0) } ?? false }.count
                lines.append(
                    "webhook \(bundleID(webhook.appID)) \(Echo.text(webhook.url, limit: 80))\(webhook.enabled ? "" : " (disabled)"): "
                        + "\(sent.count) deliveries since start, \(answered) answered 2xx")
            }
            if !lines.isEmpty || state.uploadedBytes > 0 {
                lines.append("bytes received on upload URLs since start: \(ByteFormat.size(state.uploadedBytes))")
            }
            return lines
        }
    }
}
