import Foundation
import Rehearsal
import Testing

@testable import ReleaseGitHub
@testable import ReleaseHTTP
@testable import ReleaseSupport

/// The libcurl client against the local GitHub server on 127.0.0.1 (real sockets, real HTTP).
@Suite("HTTPClient")
struct HTTPClientTests {
    @Test func streamsFileWithContentLengthProgressAndNoExpect() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("payload.bin", size: 2_500_000)
        let release = try await fixture.client().createRelease(GitHubTestFixture.repo, GitHubReleaseFields(tagName: "v1", draft: true))
        let progress = Recorder<Int64>()
        let digest = StreamingDigest()
        let response = try await fixture.client().uploadAsset(
            uploadURLTemplate: release.uploadURL, file: path, name: "payload.bin", contentType: "application/octet-stream",
            digest: digest
        ) { sent, total in
            #expect(total == 2_500_000)
            progress.append(sent)
        }
        #expect(response.status == 201)
        #expect(response.bytesSent == 2_500_000)
        #expect(progress.all.last == 2_500_000)
        #expect(progress.all == progress.all.sorted())
        #expect(digest.count == 2_500_000)
        #expect("sha256:" + digest.hex == (try fixture.sha256(path)))
        let upload = try #require(fixture.server.requests.last { $0.route == .uploadAsset })
        #expect(upload.header("Content-Length") == "2500000")
        #expect(upload.header("Expect") == nil)
        #expect(upload.header("Transfer-Encoding") == nil)
        #expect(upload.target.hasSuffix("/assets?name=payload.bin"))
        #expect(response.header("x-ratelimit-limit") == "5000")
    }

    @Test func retriesHonourRetryAfterAndStopOnOther4xx() async throws {
        let fixture = try GitHubTestFixture()
        fixture.server.addFault(LocalServerFaultRule(route: .user, fault: .tooManyRequests(retryAfter: 7)))
        fixture.server.addFault(LocalServerFaultRule(route: .user, occurrence: 2, fault: .status(503, message: "unavailable")))
        let login = try await fixture.client().authenticatedUser()
        #expect(login == "release-bot")
        #expect(fixture.server.requests.map(\.status) == [429, 503, 200])
        #expect(fixture.delays.all == [.seconds(7), .milliseconds(20)])  // Retry-After, then back-off 10 ms · 2
        #expect(fixture.allLogs.contains { $0.contains("returned HTTP 429; retrying in 7s (attempt 2 of 4)") })

        fixture.server.clearRequests()
        let response = try await fixture.client().send("GET", "/repos/octo/app/releases/424242")
        #expect(response.status == 404)
        #expect(fixture.server.requests.count == 1)
    }

    @Test func waitIsCappedAndRateLimitResetIsHonoured() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let policy = RetryPolicy(maxDelay: .seconds(30), jitter: false, now: { now })
        let reset = HTTPResponse(
            status: 403,
            headers: [
                HTTPHeader(name: "X-RateLimit-Remaining", value: "0"), HTTPHeader(name: "X-RateLimit-Reset", value: "1000012"),
            ])
        #expect(RetryPolicy.isRetriable(reset))
        #expect(policy.delay(after: reset, attempt: 1) == .seconds(12))
        let long = HTTPResponse(status: 429, headers: [HTTPHeader(name: "Retry-After", value: "3600")])
        #expect(policy.delay(after: long, attempt: 1) == .seconds(30))
        let date = HTTPResponse(status: 503, headers: [HTTPHeader(name: "Retry-After", value: "Mon, 12 Jan 1970 13:46:45 GMT")])
        #expect(policy.delay(after: date, attempt: 1) == .seconds(5))
        #expect(!RetryPolicy.isRetriable(HTTPResponse(status: 403, body: Data(#"{"message":"Resource not accessible"}"#.utf8))))
        #expect(!RetryPolicy.isRetriable(HTTPResponse(status: 422)))
        #expect(policy.backoff(afterAttempt: 3) == .seconds(4))
    }

    @Test func connectionErrorsAreRetriedThenReported() async throws {
        // A port nobody listens on: 1 (tcpmux) is served by nothing here. A port freed by a stopped server could be taken
        // by a test running beside this one.
        let url = "http://127.0.0.1:1"
        let attempts = Recorder<Duration>()
        let client = HTTPClient(
            configuration: .init(
                connectTimeout: .seconds(2),
                retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), jitter: false, sleep: { attempts.append($0) })
            ))
        await #expect {
            _ = try await client.send(HTTPRequest(url: url + "/user"))
        } throws: { error in
            guard let error = error as? HTTPError, case .transport(_, _, 7, let message) = error else { return false }
            return !message.isEmpty && "\(error)".hasPrefix("GET \(url)/user failed: ")
        }
        #expect(attempts.all.count == 2)
    }

    @Test func credentialsGoOnlyToAllowedHosts() async throws {
        let fixture = try GitHubTestFixture()
        let client = HTTPClient(configuration: .init(credentialHosts: ["api.github.com"]))
        await #expect(throws: HTTPError.credentialNotAllowed(host: "127.0.0.1")) {
            _ = try await client.send(HTTPRequest(url: fixture.url + "/user", authorization: "Bearer secret"))
        }
        #expect(fixture.server.requests.isEmpty)
        #expect(GitHubClient.credentialHosts(forAPIHost: "api.github.com") == ["api.github.com", "uploads.github.com"])
        #expect(HTTPRequest.redact("https://user:pass@example.com/x?y=1") == "https://example.com/x?y=1")
    }

    @Test func stalledTransferTimesOut() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("stall.bin", size: 8_000_000)
        // The server stalls far longer than the client's stall timeout: the client must give up, not wait it out
        // (its error names the stall timeout; waiting out the server would end otherwise, 10 minutes later).
        fixture.server.addFault(LocalServerFaultRule(route: .unknown, fault: .stall(afterBytes: 1000, seconds: 600)))
        let client = HTTPClient(configuration: .init(stallTimeout: .seconds(1), retryPolicy: .once))
        await #expect {
            _ = try await client.send(HTTPRequest(method: "PUT", url: fixture.url + "/anything", body: .file(path: path)))
        } throws: { error in
            (error as? HTTPError)?.isTimeout == true && "\(error)".contains("no data moved for 1s (stall timeout)")
        }
    }

    @Test func cancellingTheTaskStopsTheTransfer() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("cancel.bin", size: 8_000_000)
        fixture.server.addFault(LocalServerFaultRule(route: .unknown, fault: .stall(afterBytes: 1000, seconds: 600)))
        let client = HTTPClient(configuration: .init(stallTimeout: .seconds(1200), retryPolicy: .once))
        let task = Task {
            try await client.send(HTTPRequest(method: "PUT", url: fixture.url + "/anything", body: .file(path: path)))
        }
        try await Task.sleep(for: .milliseconds(300))
        let started = Date()
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(Date().timeIntervalSince(started) < 300, "cancellation must not wait for the 10-minute stall")
    }

    @Test func multipartStreamsFilePartWithExactLength() async throws {
        let fixture = try GitHubTestFixture()
        let path = try fixture.file("Demo.app.dSYM.zip", size: 123_456)
        let form = MultipartForm(fields: [("appVersion", "3.0.0")], fileField: "dsym", filePath: path, fileContentType: "application/zip", boundary: "XYZ")
        let expected = Int64(form.head.count + 123_456 + form.tail.count)
        let response = try await HTTPClient().send(HTTPRequest(method: "POST", url: fixture.url + "/upload", body: .multipart(form)))
        #expect(response.status == 401)  // no token: the server still read the whole form
        #expect(response.bytesSent == expected)
        let request = try #require(fixture.server.requests.last)
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=XYZ")
        #expect(request.header("Content-Length") == "\(expected)")
        #expect(
            String(decoding: form.head, as: UTF8.self)
                == "--XYZ\r\nContent-Disposition: form-data; name=\"appVersion\"\r\n\r\n3.0.0\r\n--XYZ\r\nContent-Disposition: form-data; name=\"dsym\"; filename=\"Demo.app.dSYM.zip\"\r\nContent-Type: application/zip\r\n\r\n"
        )
    }

    @Test func uriTemplatesExpandLikeRFC6570() {
        let template = "https://uploads.github.com/repos/o/r/releases/1/assets{?name,label}"
        #expect(URITemplate.expand(template, ["name": "Demo App+1.zip"]) == "https://uploads.github.com/repos/o/r/releases/1/assets?name=Demo%20App%2B1.zip")
        #expect(
            URITemplate.expand(template, ["name": "a.zip", "label": "dSYMs für iOS"])
                == "https://uploads.github.com/repos/o/r/releases/1/assets?name=a.zip&label=dSYMs%20f%C3%BCr%20iOS")
        #expect(URITemplate.expand(template, [:]) == "https://uploads.github.com/repos/o/r/releases/1/assets")
        #expect(URITemplate.expand("/repos/{owner}/{repo}", ["owner": "o", "repo": "r"]) == "/repos/o/r")
    }

    @Test func invalidURLsAreRejectedBeforeSending() async {
        await #expect(throws: HTTPError.invalidURL("ftp://example.com/x")) {
            _ = try await HTTPClient().send(HTTPRequest(url: "ftp://example.com/x"))
        }
    }
}

@Suite("HTTPClient TLS")
struct HTTPClientTLSTests {
    /// TLS is always verified and its failures are not retried: https to a plain-HTTP port fails the
    /// handshake at once.
    @Test func tlsFailuresAreNotRetried() async throws {
        let fixture = try GitHubTestFixture()
        let port = fixture.url.split(separator: ":").last.map(String.init) ?? ""
        let attempts = Recorder<Duration>()
        let client = HTTPClient(
            configuration: .init(
                connectTimeout: .seconds(3), caCertificateFile: "/nonexistent/ca.pem",
                retryPolicy: RetryPolicy(maxAttempts: 3, sleep: { attempts.append($0) })
            ))
        await #expect {
            _ = try await client.send(HTTPRequest(url: "https://127.0.0.1:\(port)/user"))
        } throws: { error in
            guard let error = error as? HTTPError, case .transport = error else { return false }
            return !error.isRetriable
        }
        #expect(attempts.all.isEmpty)
    }
}
